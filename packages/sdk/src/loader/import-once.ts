/**
 * The module loader of the core: plugins and the core's lazily loaded parts (docs/architecture.md "SDK plugins") come
 * from the SDK's server through it. It sits below every subsystem that loads something (playback, transport, sei,
 * experimental, the plugin API), so none of them reaches into another for it.
 */

const loaded = new Map<string, Promise<unknown>>();

/** docs/behaviour.md §2 / §7: the debug dialog script loads with 3 retries and a 3 s time-out; the same holds for every built-in. */
export const LOAD_RETRIES = 3;
export const LOAD_TIMEOUT_MS = 3000;

/** Imports a module of the SDK's server (a plugin, a lazily loaded part), with the retries and time-out of docs/behaviour.md §7.4. */
export async function importWithRetries<T>(url: string): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= LOAD_RETRIES; attempt += 1) {
    // The browser caches a failed module fetch by URL: a retry asks for a distinct one.
    const target = attempt === 0 ? url : `${url}?retry=${attempt}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        // A runtime URL: bundlers must leave it alone (the file lives on the Conclave server, not in the app).
        import(/* webpackIgnore: true */ /* @vite-ignore */ target) as Promise<T>,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${LOAD_TIMEOUT_MS} ms`)), LOAD_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      lastError = error; // thrown after the last attempt
    } finally {
      clearTimeout(timer);
    }
  }
  throw lastError;
}

/** importWithRetries once per URL: later calls share the load; a failed one is forgotten, so the next call tries again. */
export function importOnce<T>(url: string): Promise<T> {
  let promise = loaded.get(url) as Promise<T> | undefined;
  if (!promise) {
    promise = importWithRetries<T>(url);
    promise.catch(() => loaded.delete(url)); // forgotten so the next call retries; the caller gets the rejection
    loaded.set(url, promise);
  }
  return promise;
}
