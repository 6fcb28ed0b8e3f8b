import { importOnce } from '../loader/import-once.js';
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
