/**
 * The origin of the server the SDK talks to when the app configures none: the origin of the
 * script that loaded the SDK, else the page's origin. Captured when the module is evaluated,
 * because document.currentScript is only set then.
 */
function detect(): string {
  try {
    const script = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;
    if (script?.src) return new URL(script.src).origin;
  } catch {
    // fall through
  }
  try {
    const url = import.meta.url;
    if (url && /^https?:/.test(url)) return new URL(url).origin;
  } catch {
    // fall through
  }
  return typeof location !== 'undefined' ? location.origin : 'http://localhost';
}

export const DEFAULT_SERVER_ORIGIN = detect();
