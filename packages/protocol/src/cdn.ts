/**
 * CDN publishing and mix transcoding (SPEC §7 "mix transcode start/stop; CDN publish start/stop"): the
 * commands the CDNStreaming plugin sends. They ride the same `{id, cmd, data}` envelope as CommandMap's
 * commands; the server runs each as a media job (see the server's jobs/).
 */

/** The plugin's publish modes (trtc-sdk-v5 CDNStreaming PublishMode). */
export type CdnPublishMode = 'PublishMainStreamToCDN' | 'PublishSubStreamToCDN' | 'PublishMixStreamToCDN';
export const CDN_PUBLISH_MODES: readonly CdnPublishMode[] = Object.freeze(['PublishMainStreamToCDN', 'PublishSubStreamToCDN', 'PublishMixStreamToCDN'] as const);

/** Output encoding of a mix (trtc-sdk-v5 Encoding). */
export interface CdnEncoding {
  videoWidth?: number;
  videoHeight?: number;
  /** kbps */
  videoBitrate?: number;
  /** 1–30 */
  videoFramerate?: number;
  /** Seconds between key frames, 1–8. */
  videoGOP?: number;
  audioSampleRate?: number;
  /** kbps, 32–192 */
  audioBitrate?: number;
  audioChannels?: 1 | 2;
}

/** One rectangle of a mix (trtc-sdk-v5 VideoLayout, flattened: the user is `userId`). */
export interface CdnVideoLayout {
  userId: string;
  streamType: 'main' | 'sub';
  /** 0 crop to fill, 1 fit with bars, 2 stretch. */
  fillMode: 0 | 1 | 2;
  width: number;
  height: number;
  locationX: number;
  locationY: number;
  /** 1–15; higher is in front. */
  zOrder: number;
}

/** What to mix (trtc-sdk-v5 Mix). */
export interface CdnMix {
  /** 0xRRGGBB */
  backgroundColor?: number;
  backgroundImage?: string;
  /** Whose audio is mixed; absent: everyone in videoLayoutList. */
  audioMixUserList?: string[];
  videoLayoutList: CdnVideoLayout[];
}

/** Start or update: where to publish and, for a mix, what. */
export interface CdnStartData {
  publishMode: CdnPublishMode;
  /** An RTMP URL to push to; without it the server's default ingest plus streamId. */
  url?: string;
  streamId?: string;
  encoding?: CdnEncoding;
  mix?: CdnMix;
}
export interface CdnStopData { publishMode: CdnPublishMode }
export interface CdnStartReply {
  jobId: string;
  /** Where the stream goes (the RTMP URL without credentials' query). */
  url: string;
}

/** The CDN commands: request data and reply data, as in CommandMap. */
export interface CdnCommandMap {
  'cdn-start': { data: CdnStartData; reply: CdnStartReply };
  /** Changes a running job (a mix's layout, encoding is fixed at start); same data as cdn-start. */
  'cdn-update': { data: CdnStartData; reply: CdnStartReply };
  'cdn-stop': { data: CdnStopData; reply: Record<string, never> };
}
export type CdnCommand = keyof CdnCommandMap;
export const CDN_COMMANDS: readonly CdnCommand[] = Object.freeze(['cdn-start', 'cdn-update', 'cdn-stop'] as const);

/** Reply codes of the CDN commands: SPEC §8 reading A's numbers for these failures. */
export const CDN_CODE = Object.freeze({
  START_PUBLISH_CDN_FAILED: 16453,
  STOP_PUBLISH_CDN_FAILED: 16454,
  START_MIX_TRANSCODE_FAILED: 16455,
  STOP_MIX_TRANSCODE_FAILED: 16456,
} as const);

/** SPEC §5 mix transcode limits. */
export const MIX_LIMITS = Object.freeze({
  FRAMERATE: [1, 30], GOP: [1, 8], AUDIO_BITRATE: [32, 192], Z_ORDER: [1, 15],
  MAX_WIDTH: 1920, MAX_HEIGHT: 1920, MAX_LAYOUTS: 16,
} as const);

/** A mix's encoding when the app gives none (the original plugin's defaults). */
export const MIX_DEFAULT_ENCODING = Object.freeze({
  videoWidth: 640, videoHeight: 480, videoBitrate: 800, videoFramerate: 15, videoGOP: 2,
  audioSampleRate: 48000, audioBitrate: 64, audioChannels: 1 as 1 | 2,
});
