/** A probe that has had no answer by then counts as unreachable (a dropped network answers nothing at all). */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * The server's health route for a signalling URL: `wss://host/signal` → `https://host/healthz`. Undefined when
 * the URL cannot be read.
 */
export function healthUrlOf(signalUrl: string): string | undefined {
  try {
    const url = new URL(signalUrl);
    url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.pathname = '/healthz';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return undefined;
  }
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
    return false;
  } finally {
    clearTimeout(timer);
  }
}
