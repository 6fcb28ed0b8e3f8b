import { httpOrigin } from '../schedule/scheduler.js';

/** A probe that has had no answer by then counts as unreachable (a dropped network answers nothing at all). */
const PROBE_TIMEOUT_MS = 2_000;

/** The server's health route for a signalling URL: `wss://host/signal` → `https://host/healthz`; undefined when unreadable. */
export function healthUrlOf(signalUrl: string): string | undefined {
  const origin = httpOrigin(signalUrl);
  return origin && /^https?:/.test(origin) ? `${origin}/healthz` : undefined;
}

/**
 * Asks whether the server at `url` answers at all (any HTTP status counts: an answer means it listens). An
 * opaque no-cors request needs no CORS headers from the server and carries no credentials; it fails fast
 * when nothing listens and is given up after 2 s when nothing answers.
 */
export async function probeServer(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  if (typeof fetch !== 'function') return false;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: controller.signal });
    return true;
  } catch {
    return false; // unreachable: what the probe asks
  } finally {
    clearTimeout(timer);
  }
}
