import type { TRTCPlugin } from '../types.js';

/**
 * Plugins the original bundles into trtc.js: they need no registration. Conclave keeps them out of the core
 * bundle (size budget) and loads each one on first use from the server's SDK folder — the same files the plugin
 * table (plugin-entries.mjs) builds at /sdk/plugins/<path>/<name>.esm.js.
 */
export const BUILT_IN_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  AudioMixer: 'audio-mixer/audio-mixer',
  AIDenoiser: 'ai-denoiser/ai-denoiser',
  Debug: 'debug/debug',
  TRTCVideoDecoder: 'video-decoder/video-decoder',
  // Not built into the original's trtc.js (5.18 ships it as plugins/audio-player), but needing no registration costs nothing here.
  AudioPlayer: 'audio-player/audio-player',
});

/**
 * Built-ins of the original's trtc.js that run on the vendor's paid cloud: a self-hosted server cannot offer
 * them, so startPlugin / updatePlugin reject with ENV_NOT_SUPPORTED and this message (the SDK README lists them).
 */
export const VENDOR_CLOUD_BUILT_INS: Readonly<Record<string, string>> = Object.freeze({
  AudioProcessor: 'AudioProcessor is not supported here: its voice processing is a proprietary model of the vendor\'s paid cloud service, which a self-hosted Conclave server does not have',
});

const loaded = new Map<string, Promise<unknown>>();

/** docs/behaviour.md §2 / §7: the debug dialog script loads with 3 retries and a 3 s time-out; the same holds for every built-in. */
export const LOAD_RETRIES = 3;
export const LOAD_TIMEOUT_MS = 3000;

/** Imports a module of the SDK's server (a plugin, a lazily loaded part), with the retries and time-out of docs/behaviour.md §7.4. */
export async function importWithRetries<T = { default: TRTCPlugin }>(url: string): Promise<T> {
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

/** Loads a built-in plugin's module (once per URL); its default export is the plugin class. */
export function loadBuiltIn(sdkBase: string, name: string): Promise<TRTCPlugin> | undefined {
  const file = BUILT_IN_PLUGINS[name];
  if (!file) return undefined;
  return importOnce<{ default: TRTCPlugin }>(`${sdkBase}/plugins/${file}.esm.js`).then((module) => module.default);
}

/** The original's switches for the debug dialog: `?trtcDebug` in the page URL or its session-storage flag. */
export function debugRequested(): boolean {
  try {
    if (typeof location !== 'undefined' && new URLSearchParams(location.search).has('trtcDebug')) return true;
    return typeof sessionStorage !== 'undefined' && sessionStorage.getItem('TRTC_ENABLE_DEBUG_PLUGIN') === 'true';
  } catch {
    return false; // storage blocked: the debug plugin is not asked for
  }
}
