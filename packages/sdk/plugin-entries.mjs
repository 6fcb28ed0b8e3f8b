// The plugin table: one line per plugin file the SDK ships. build.mjs turns each entry into
// dist/plugins/<path>/<name>.{esm,umd,iife}.js + <name>.esm.d.ts (+ a package.json as the original has), and
// package.json gets a subpath export "./plugins/<path>" for it. The server serves dist/ under /sdk/, so the files
// are at /sdk/plugins/<path>/<name>.umd.js etc. — the same relative paths as trtc-sdk-v5's package.
//
//   name        file base name (last segment of path, kebab-case, as in trtc-sdk-v5)
//   path        folder under plugins/ ('video-effect/watermark' mirrors trtc-sdk-v5/plugins/video-effect/watermark)
//   globalName  the global the UMD / IIFE builds set (the original's: Watermark, VirtualBackground, …)
//   source      the entry module, relative to src/plugins/ (its default export is the plugin class)
//   builtIn     true for plugins the original bundles into trtc.js (no registration; the core loads the ESM
//               file lazily from the SDK's own origin); these get no subpath export unless `exported`
//   exported    true for a built-in the original's package also ships as a plugin path (video-decoder)
//
// Add a plugin: one line here, the source folder under src/plugins/, nothing else.

/** @type {import('./plugin-entries.d.mts').PluginEntry[]} */
export const PLUGIN_ENTRIES = [
  { name: 'audio-mixer', path: 'audio-mixer', globalName: 'AudioMixer', source: 'audio-mixer/index.ts', builtIn: true },
  { name: 'ai-denoiser', path: 'ai-denoiser', globalName: 'AIDenoiser', source: 'ai-denoiser/index.ts', builtIn: true },
  { name: 'debug', path: 'debug', globalName: 'Debug', source: 'debug/index.ts', builtIn: true },
  { name: 'video-decoder', path: 'video-decoder', globalName: 'TRTCVideoDecoder', source: 'video-decoder/index.ts', builtIn: true, exported: true },
  { name: 'watermark', path: 'video-effect/watermark', globalName: 'Watermark', source: 'video-effect/watermark/index.ts' },
  { name: 'basic-beauty', path: 'video-effect/basic-beauty', globalName: 'BasicBeauty', source: 'video-effect/basic-beauty/index.ts' },
  { name: 'virtual-background', path: 'video-effect/virtual-background', globalName: 'VirtualBackground', source: 'video-effect/virtual-background/index.ts' },
  { name: 'video-mixer', path: 'video-effect/video-mixer', globalName: 'VideoMixer', source: 'video-effect/video-mixer/index.ts' },
  { name: 'cdn-streaming', path: 'cdn-streaming', globalName: 'CDNStreaming', source: 'cdn-streaming/index.ts' },
  { name: 'small-stream-auto-switcher', path: 'small-stream-auto-switcher', globalName: 'SmallStreamAutoSwitcher', source: 'small-stream-auto-switcher/index.ts' },
  { name: 'voice-changer', path: 'voice-changer', globalName: 'VoiceChanger', source: 'voice-changer/index.ts' },
  { name: 'device-detector', path: 'device-detector', globalName: 'DeviceDetector', source: 'device-detector/index.ts' },
  { name: 'custom-encryption', path: 'custom-encryption', globalName: 'CustomEncryption', source: 'custom-encryption/index.ts' },
  { name: 'beauty', path: 'video-effect/beauty', globalName: 'Beauty', source: 'video-effect/beauty/index.ts' },
  { name: 'face-detection', path: 'video-effect/face-detection', globalName: 'FaceDetection', source: 'video-effect/face-detection/index.ts' },
  // 5.18: a separate plugin in the original; here it also loads lazily when started unregistered, as the built-ins do.
  { name: 'audio-player', path: 'audio-player', globalName: 'AudioPlayer', source: 'audio-player/index.ts', builtIn: true, exported: true },
  // Paths whose server or cloud side a self-hosted server lacks: they load and register, and refuse to start.
  { name: 'cross-room', path: 'cross-room', globalName: 'CrossRoom', source: 'cross-room/index.ts' },
  { name: 'lebplayer', path: 'lebplayer', globalName: 'LEBPlayer', source: 'lebplayer/index.ts' },
  { name: 'realtime-transcriber', path: 'realtime-transcriber', globalName: 'RealtimeTranscriber', source: 'realtime-transcriber/index.ts' },
  { name: 'chorus', path: 'chorus', globalName: 'Chorus', source: 'chorus/index.ts' },
];

/** The package.json "exports" map: the core, then one subpath per separate (or exported built-in) plugin. */
export function packageExports(entries = PLUGIN_ENTRIES) {
  /** @type {Record<string, unknown>} */
  const exports = {
    '.': { types: './dist/trtc.d.ts', import: './dist/trtc.esm.js', default: './dist/trtc.js' },
  };
  for (const entry of entries) {
    if (entry.builtIn && !entry.exported) continue;
    const base = `./dist/plugins/${entry.path}/${entry.name}`;
    exports[`./plugins/${entry.path}`] = { types: `${base}.esm.d.ts`, import: `${base}.esm.js`, default: `${base}.umd.js` };
  }
  exports['./package.json'] = './package.json';
  return exports;
}
