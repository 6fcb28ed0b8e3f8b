import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WATCHDOG = fileURLToPath(new URL('../../src/lifecycle/exit-watchdog.ts', import.meta.url));

/** Runs a Node child that starts the watchdog, arms it for `armMs`, then keeps its main thread busy without end. */
function busyChild(armMs: number): Promise<{ signal: NodeJS.Signals | null; ms: number }> {
  const script = `
    const { startExitWatchdog } = await import(${JSON.stringify(WATCHDOG)});
    const watchdog = startExitWatchdog();
    await new Promise((resolve) => setTimeout(resolve, 200)); // the thread is up, idle
    process.stdout.write('armed\\n');
    watchdog.arm(${armMs});
    // A main thread that never yields (no timer of its own could fire); it gives up after 20 s, so a watchdog that
    // does not fire fails the test instead of leaving the process behind.
    for (const t = Date.now(); Date.now() - t < 20000;) {}
    process.exit(3);
  `;
  const dir = mkdtempSync(join(tmpdir(), 'watchdog-'));
  writeFileSync(join(dir, 'child.mjs'), script);
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'child.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    let armedAt = 0;
    child.stdout.on('data', () => { armedAt ||= performance.now(); });
    child.once('error', reject);
    child.once('exit', (_code, signal) => resolve({ signal, ms: performance.now() - armedAt }));
  });
}

describe('exit watchdog', () => {
  it('ends a process whose main thread never yields, at the armed deadline', async () => {
    const { signal, ms } = await busyChild(500);
    expect(signal).toBe('SIGKILL');
    expect(ms).toBeGreaterThanOrEqual(400);
    expect(ms).toBeLessThan(10_000);
  }, 30_000);
});
