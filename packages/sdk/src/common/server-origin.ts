/**
 * The origin of the server the SDK talks to when the app configures none: a
 * `<meta name="conclave-server">` tag's, else the origin of the script that loaded the SDK, else the page's origin. Captured when the module is evaluated,
 * because document.currentScript is only set then.
 */
function detect(): string {
  // A bundled app on its own origin names its server outside its code: <meta name="conclave-server" content="https://…">.
  const meta = typeof document !== 'undefined' ? document.querySelector<HTMLMetaElement>('meta[name="conclave-server"]')?.content : undefined;
  if (meta && /^https?:\/\//.test(meta)) return new URL(meta).origin;
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
