import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A media server an engine spawns (Janus) must not outlive this process, even when it is
 * SIGKILLed (no exit handler runs then): a tiny shell holds a pipe from us and kills the child when the pipe
 * closes, i.e. when we are gone. It kills only the process it watched: the pid's start time must be unchanged (a child gone before the pipe closed may have
 * left its pid to an unrelated program).
 */
export function watchParent(child: ChildProcess): void {
  if (!child.pid) return;
  const pid = child.pid;
  const started = `sed 's/.*) //' /proc/${pid}/stat 2>/dev/null | cut -d' ' -f20`;
  const script = `s=$(${started}); read _; [ -n "$s" ] && [ "$(${started})" = "$s" ] && kill -9 ${pid} 2>/dev/null`;
  const watchdog = spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  watchdog.unref();
  child.once('exit', () => watchdog.stdin?.end());
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}
