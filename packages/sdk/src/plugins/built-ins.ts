import type { TRTCPlugin } from '../types.js';

/**
 * Plugins the original bundles into trtc.js: they need no registration. Conclave keeps them out of the core
 * bundle (size budget) and loads each one on first use from the server's SDK folder — the same files the plugin
 * table (plugin-entries.mjs) builds at /sdk/plugins/<path>/<name>.esm.js.
 */
export const BUILT_IN_PLUGINS: Readonly<Record<string, string>> = Object.freeze({
  AudioMixer: 'audio-mixer/audio-mixer',
  // AIDenoiser: 'ai-denoiser/ai-denoiser',
  // Debug: 'debug/debug',
});

const loaded = new Map<string, Promise<TRTCPlugin>>();

/** Loads a built-in plugin's module (once per URL); its default export is the plugin class. */
export function loadBuiltIn(sdkBase: string, name: string): Promise<TRTCPlugin> | undefined {
  const file = BUILT_IN_PLUGINS[name];
  if (!file) return undefined;
  const url = `${sdkBase}/plugins/${file}.esm.js`;
  let promise = loaded.get(url);
  if (!promise) {
    // A runtime URL: bundlers must leave it alone (the file lives on the Conclave server, not in the app).
    promise = (import(/* webpackIgnore: true */ /* @vite-ignore */ url) as Promise<{ default: TRTCPlugin }>).then((module) => module.default);
    promise.catch(() => loaded.delete(url));
    loaded.set(url, promise);
  }
  return promise;
}

/** The original's switches for the debug dialog: `?trtcDebug` in the page URL or its session-storage flag. */
export function debugRequested(): boolean {
  try {
    if (typeof location !== 'undefined' && new URLSearchParams(location.search).has('trtcDebug')) return true;
    return typeof sessionStorage !== 'undefined' && sessionStorage.getItem('TRTC_ENABLE_DEBUG_PLUGIN') === 'true';
  } catch {
    return false;
  }
}
