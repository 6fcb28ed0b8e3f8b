/**
 * CDN publishing and mix transcoding (docs/behaviour.md §7 "mix transcode start/stop; CDN publish start/stop"): the
 * commands the CDNStreaming plugin sends on the room's WebSocket. The server runs each as a media job.
 * Limits are docs/behaviour.md §5's mix rules (cdn.ts); the plugin checks the same first, with the original's messages.
 */
import { z } from 'zod';
import { CDN_PUBLISH_MODES, MIX_IMAGE_NAME, MIX_LIMITS } from '../cdn.js';
import { command, empty } from './fields.js';

const int = (min: number, max: number) => z.number().int('must be an integer').min(min, `must be between [${min}, ${max}]`).max(max, `must be between [${min}, ${max}]`);
const mixUser = z.string().min(1).max(128);

/** The plugin's publish modes (trtc-sdk-v5 CDNStreaming PublishMode). */
export const cdnPublishMode = z.enum(CDN_PUBLISH_MODES);

/** Output encoding of a mix (trtc-sdk-v5 Encoding). */
export const cdnEncoding = z.strictObject({
  videoWidth: int(16, MIX_LIMITS.MAX_WIDTH).optional(),
  videoHeight: int(16, MIX_LIMITS.MAX_HEIGHT).optional(),
  /** kbps */
  videoBitrate: int(64, 20_000).optional(),
  videoFramerate: int(...MIX_LIMITS.FRAMERATE).optional(),
  /** Seconds between key frames. */
  videoGOP: int(...MIX_LIMITS.GOP).optional(),
  audioSampleRate: z.literal([48000, 44100, 32000, 16000]).optional(),
  /** kbps */
  audioBitrate: int(...MIX_LIMITS.AUDIO_BITRATE).optional(),
  audioChannels: z.literal([1, 2]).optional(),
});

/** One rectangle of a mix (trtc-sdk-v5 VideoLayout, flattened: the user is `userId`). */
export const cdnVideoLayout = z.strictObject({
  userId: mixUser,
  streamType: z.enum(['main', 'sub']),
  /** 0 crop to fill, 1 fit with bars, 2 stretch. */
  fillMode: z.literal([0, 1, 2]),
  width: int(0, MIX_LIMITS.MAX_WIDTH),
  height: int(0, MIX_LIMITS.MAX_HEIGHT),
  locationX: int(0, MIX_LIMITS.MAX_WIDTH),
  locationY: int(0, MIX_LIMITS.MAX_HEIGHT),
  /** Higher is in front. */
  zOrder: int(...MIX_LIMITS.Z_ORDER),
});

/** What to mix (trtc-sdk-v5 Mix). */
export const cdnMix = z.strictObject({
  /** 0xRRGGBB */
  backgroundColor: int(0, 0xffffff).optional(),
  /** The name of an image uploaded through the admin API (PUT .../mix-images/{name}), drawn under every user. */
  backgroundImage: z.string().regex(MIX_IMAGE_NAME, 'must be the name of an uploaded mix image: 1 to 64 letters, digits, hyphens or underscores').optional(),
  /** Whose audio is mixed; absent: everyone in videoLayoutList. */
  audioMixUserList: z.array(mixUser).max(MIX_LIMITS.MAX_LAYOUTS).optional(),
  videoLayoutList: z.array(cdnVideoLayout).max(MIX_LIMITS.MAX_LAYOUTS),
});

/** Start or update: where to publish and, for a mix, what. */
export const cdnStartData = z.strictObject({
  publishMode: cdnPublishMode,
  /** An RTMP URL to push to; without it the server's default ingest plus streamId. */
  url: z.string().max(1024).regex(/^rtmps?:\/\/[^\s/]+\/\S+$/, 'must be an rtmp:// or rtmps:// URL').optional(),
  streamId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, hyphen or underscore').optional(),
  encoding: cdnEncoding.optional(),
  mix: cdnMix.optional(),
});

export const cdnStopData = z.strictObject({ publishMode: cdnPublishMode });

export const cdnStartReply = z.object({
  jobId: z.string(),
  /** Where the stream goes (the RTMP URL without its query, which may hold credentials). */
  url: z.string(),
});

/** The CDN group of CommandMap. */
export const cdnCommands = {
  /** Starts publishing to a CDN (a relay of the caller's stream, or a mix); a second start of a mode replaces the first. */
  'cdn-start': command(cdnStartData, cdnStartReply),
  /** Changes a running job (a mix's layout and background image, live; encoding is fixed at start); same data as cdn-start. */
  'cdn-update': command(cdnStartData, cdnStartReply),
  'cdn-stop': command(cdnStopData, empty),
};
