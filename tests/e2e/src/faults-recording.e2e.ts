import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { join as joinRoom, watch } from './harness/join.js';
import { fakeMediaArgs, makeFakeMedia, probe } from './harness/media-probe.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

/*
 * Faults (issue 30): a media job killed mid-recording, and the disk full under a recording. Real Chromium
 * publishes; the server records each published stream (GStreamer job); ffmpeg decodes what it wrote.
 */

const run = promisify(execFile);
const ADMIN_KEY = 'conclave-e2e-admin-key-0123456789';

interface Recording { recordingId: string; kind: 'mixed' | 'stream'; userId: string | null; bytes: number; recording: boolean }
interface Job { jobId: string; kind: string; state: string; restarts: number; pid: number | null; lastError: string | null; outputs: string[] }

/** Decodes a file end to end: ffmpeg must read every packet without an error. Returns the decoded frame count. */
async function decodeAll(path: string): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-v', 'error', '-xerror', '-i', path, '-map', '0:v', '-f', 'null', '-', '-map', '0:a', '-f', 'null', '-', '-stats_period', '100'], { timeout: 60_000 });
  // Lines of the null output's own muxer (timestamps it is handed) are not about the file; the rest are.
  const errors = stderr.split('\n').filter((line) => line.trim() && !line.startsWith('[null @'));
  expect(errors, `ffmpeg errors decoding ${path}`).toEqual([]);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', path], { timeout: 60_000 });
  return Number(stdout.trim());
}

describe('faults: media jobs and the disk', () => {
  let browser: LaunchedBrowser;
  const servers: TestServer[] = [];
  const apps: AppHost[] = [];
  const folders: string[] = [];
  let tmpfs: string | undefined;

  beforeAll(async () => {
    browser = await launchBrowser(fakeMediaArgs(await makeFakeMedia('faults-rec', 'red', 440)));
  });
  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
    for (const server of servers) await server.close();
    if (tmpfs) execFileSync('umount', [tmpfs], { stdio: 'pipe' });
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** A server recording every published stream into `folder`, with its app page host and admin calls. */
  async function recordingServer(folder: string) {
    const server = await startTestServer({ apps: [{ ...TEST_APP, adminKey: ADMIN_KEY, recording: 'per-stream' }], media: { recordingPath: folder } });
    servers.push(server);
    const app = await AppHost.start(server.url);
    apps.push(app);
    const admin = async <T>(path: string): Promise<T> => (await (await fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}${path}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json()) as T;
    return {
      server, app,
      recordings: async () => (await admin<{ recordings: Recording[] }>('/recordings')).recordings,
      jobs: async () => (await admin<{ jobs: Job[] }>('/jobs')).jobs,
    };
  }

  /** Bytes written so far to a recording file (0 before it exists). */
  const bytesOf = (list: Recording[], id: string) => list.find((r) => r.recordingId === id)?.bytes ?? 0;

  it('a media job killed: the job is restarted, and the recording stays playable (both parts decode end to end)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'conclave-faults-rec-'));
    folders.push(folder);
    const { server, app, recordings, jobs } = await recordingServer(folder);
    const alice = await app.open(browser.context);
    expect(await joinRoom(alice, server, 'alice', { roomId: 30201 })).toEqual({ ok: true });
    await expect.poll(async () => (await jobs()).find((j) => j.kind === 'record-stream')?.state, { timeout: 30_000, interval: 250 }).toBe('running');
    const [job] = await jobs();
    const first = (await recordings()).find((r) => r.userId === 'alice')!;
    // A few seconds of recording (a few fragments) before the kill.
    await expect.poll(async () => bytesOf(await recordings(), first.recordingId), { timeout: 20_000, interval: 250 }).toBeGreaterThan(50_000);
    process.kill(job.pid!, 'SIGKILL');
    await expect.poll(async () => (await jobs())[0], { timeout: 30_000, interval: 250 }).toMatchObject({ jobId: job.jobId, state: 'running', restarts: 1 });
    // The restart writes a new part, listed by the recordings API beside the first.
    const part = async () => (await recordings()).find((r) => r.userId === 'alice' && r.recordingId !== first.recordingId);
    await expect.poll(async () => (await part())?.recordingId, { timeout: 20_000 }).toMatch(/__part1\.mp4$/);
    await expect.poll(async () => (await part())?.bytes ?? 0, { timeout: 20_000, interval: 250 }).toBeGreaterThan(50_000);
    await alice.close();
    await expect.poll(async () => (await recordings()).every((r) => !r.recording), { timeout: 20_000 }).toBe(true);

    const parts = (await recordings()).filter((r) => r.userId === 'alice').sort((a, b) => a.recordingId.length - b.recordingId.length);
    expect(parts.map((r) => r.recordingId.replace(/^.*__alice__\d+/, ''))).toEqual(['.mp4', '__part1.mp4']);
    for (const rec of parts) {
      const path = join(folder, String(TEST_APP.sdkAppId), rec.recordingId);
      const probed = await probe(path);
      expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort(), rec.recordingId).toEqual(['audio:aac', 'video:h264']);
      expect(probed.duration, rec.recordingId).toBeGreaterThan(1.5);
      expect(await decodeAll(path), rec.recordingId).toBeGreaterThan(15);
    }
  });

  it('the disk full for recordings: the job says so (failed, disk full) and the server keeps serving rooms', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'conclave-faults-full-'));
    folders.push(folder);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=192k', 'tmpfs', folder], { stdio: 'pipe' });
    } catch (error) {
      throw new Error(`this test mounts a small tmpfs as the recordings folder, which needs root (uid ${process.getuid?.()}): ${(error as Error).message}`);
    }
    tmpfs = folder;
    const { server, app, recordings, jobs } = await recordingServer(folder);
    const alice = await app.open(browser.context);
    expect(await joinRoom(alice, server, 'alice', { roomId: 30202 })).toEqual({ ok: true });
    // The recording fills the disk: the job fails with the reason, and is not restarted over and over.
    await expect.poll(async () => (await jobs()).find((j) => j.kind === 'record-stream'), { timeout: 60_000, interval: 500 })
      .toMatchObject({ state: 'failed', lastError: expect.stringMatching(/disk full/i) });
    const failed = (await jobs()).filter((j) => j.kind === 'record-stream');
    expect(failed).toHaveLength(1);
    expect(failed[0].restarts).toBe(0);
    const listed = await recordings();
    expect(listed.filter((r) => r.recording)).toEqual([]);

    // The server keeps serving the room: another user joins and sees alice's video.
    const bob: Page = await app.open(browser.context);
    expect(await joinRoom(bob, server, 'bob', { roomId: 30202 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await watch(bob, 'alice');
    await expect.poll(async () => (await media(bob)).framesDecoded, { timeout: 20_000, interval: 250 }).toBeGreaterThan(30);
    expect((await jobs()).filter((j) => j.kind === 'record-stream' && j.state !== 'failed')).toEqual([]);
    await bob.close();
    await alice.close();
  });
});
