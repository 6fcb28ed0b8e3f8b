import type { RtcError } from '../errors/rtc-error.js';
import type { SlotEncoding } from '../transport/uplink.js';

/** What a local track puts on its uplink slot. */
export interface SlotContent {
  track: MediaStreamTrack;
  encoding?: SlotEncoding;
  muted: boolean;
  /** Audio only: opus in stereo. */
  stereo?: boolean;
}

/** One uplink slot as the local media classes see it (bound to the room's publisher by the client). */
export interface SlotPublisher {
  publish(content: SlotContent): Promise<void>;
  unpublish(): Promise<void>;
  /** Swaps the track without renegotiation. */
  replace(track: MediaStreamTrack, encoding?: SlotEncoding): Promise<void>;
  setEncoding(encoding: SlotEncoding): Promise<void>;
  setMuted(muted: boolean): Promise<void>;
}

/** What local media needs from the client around it. */
export interface LocalMediaEnv {
  /** The scheduling result's trtcAutoConf.enable2k4k (false before scheduling). */
  enable2k4k(): boolean;
  /** Emits the client's 'error' event (capture recovery failures 5308 / 5309). */
  emitError(error: RtcError): void;
  /** A capture started on a device (device-changed 'active'). */
  deviceActive(kind: 'camera' | 'microphone', track: MediaStreamTrack): void;
  /** The local preview's size changed (video-size-changed): the camera is 'main', the screen share its stream type. */
  videoSizeChanged(streamType: 'main' | 'sub', width: number, height: number): void;
}
