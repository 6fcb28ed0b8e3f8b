/**
 * CDN publishing and mix transcoding (docs/behaviour.md §7 "mix transcode start/stop; CDN publish start/stop"): the
 * commands the CDNStreaming plugin sends (schemas in commands/cdn.ts, part of CommandMap); the server runs
 * each as a media job (see the server's jobs/).
 */

import type { z } from 'zod';
import type { cdnEncoding, cdnMix, cdnStartData, cdnStartReply, cdnStopData, cdnVideoLayout } from './commands/cdn.js';

/** The plugin's publish modes (trtc-sdk-v5 CDNStreaming PublishMode). */
export const CDN_PUBLISH_MODES = Object.freeze(['PublishMainStreamToCDN', 'PublishSubStreamToCDN', 'PublishMixStreamToCDN'] as const);
export type CdnPublishMode = (typeof CDN_PUBLISH_MODES)[number];

// Types inferred from the schemas of commands/cdn.ts (type-only imports: the SDK bundles no zod).
export type CdnEncoding = z.infer<typeof cdnEncoding>;
export type CdnVideoLayout = z.infer<typeof cdnVideoLayout>;
export type CdnMix = z.infer<typeof cdnMix>;
export type CdnStartData = z.infer<typeof cdnStartData>;
export type CdnStopData = z.infer<typeof cdnStopData>;
export type CdnStartReply = z.infer<typeof cdnStartReply>;

/** Reply codes of the CDN commands: docs/behaviour.md §8 reading A's numbers for these failures. */
export const CDN_CODE = Object.freeze({
  START_PUBLISH_CDN_FAILED: 16453,
  STOP_PUBLISH_CDN_FAILED: 16454,
  START_MIX_TRANSCODE_FAILED: 16455,
  STOP_MIX_TRANSCODE_FAILED: 16456,
} as const);

/** docs/behaviour.md §5 mix transcode limits. */
export const MIX_LIMITS = Object.freeze({
  FRAMERATE: [1, 30], GOP: [1, 8], AUDIO_BITRATE: [32, 192], Z_ORDER: [1, 15],
  MAX_WIDTH: 1920, MAX_HEIGHT: 1920, MAX_LAYOUTS: 16,
} as const);

/**
 * Mix background images (mix.backgroundImage): the original names an image uploaded to its console; Conclave
 * names one uploaded through the admin API into the app's image folder (never a URL the server would fetch).
 * A name is letters, digits, hyphen or underscore (no dots or slashes: it is a file name inside the folder).
 */
export const MIX_IMAGE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const MIX_IMAGE_LIMITS = Object.freeze({
  /** Largest upload, in bytes. */
  MAX_BYTES: 2 * 1024 * 1024,
  /** Largest width or height (decoding cost: a small file can claim a huge picture). */
  MAX_SIDE: 4096,
  /** Images an app may keep. */
  MAX_PER_APP: 100,
} as const);

/** A mix's encoding when the app gives none (the original plugin's defaults). */
export const MIX_DEFAULT_ENCODING = Object.freeze({
  videoWidth: 640, videoHeight: 480, videoBitrate: 800, videoFramerate: 15, videoGOP: 2,
  audioSampleRate: 48000, audioBitrate: 64, audioChannels: 1 as 1 | 2,
});
