import { openDecodeTap } from '../playback/decode-tap.js';

/** Events a plugin reports to the app through the client (the decoder's, and AudioPlayer's autoplay-failed). */
export type RemoteVideoPluginEvent = 'error' | 'video-decode-downgrade-state-changed' | 'autoplay-failed';

/** The remote-video side of the plugin context (TRTCVideoDecoder). */
export interface RemoteVideoPluginContext {
  /**
   * The encoded-frame tap of the receiver playing a remote track (see playback/decode-tap.ts): a port that
   * gets `{data, key, timestamp, width, height, mimeType}` per frame and takes `'key'` to ask for a key frame.
   * Undefined when the track was not tapped (the schedule's videoDecodeFallback was off).
   */
  openTap(track: MediaStreamTrack): MessagePort | undefined;
  /** Emits a client event (an RtcError for 'error'). */
  emit(event: RemoteVideoPluginEvent, data: unknown): void;
}

/** Builds the remote-video context over the client's emitter. */
export function remoteVideoContext(emit: (event: RemoteVideoPluginEvent, data: unknown) => void): RemoteVideoPluginContext {
  return { openTap: openDecodeTap, emit };
}
