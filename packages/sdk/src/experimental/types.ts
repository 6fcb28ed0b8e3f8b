/** Option types of callExperimentalAPI (the names 5.17's typings list). */

/** enableAudioFrameEvent: PCM `audio-frame` events of a user ('' local, '*' everyone), or into a MessagePort. */
export interface EnableAudioFrameEventOptions {
  enable: boolean;
  userId: string;
  /** Default 48000. */
  sampleRate?: number;
  /** Default 1. */
  channelCount?: number;
  port?: MessagePort;
}

/** pauseRemotePlayer / resumeRemotePlayer. */
export interface RemotePlayerOptions {
  userId: string;
  streamType?: 'main' | 'sub';
}

/** requestPictureInPicture / requestFullScreen. */
export interface RequestPictureInPictureOptions { enable: boolean }
export interface RequestFullScreenOptions { enable: boolean }

/** A stream switchPlaybackQuality may pick. */
export interface PlaybackQualityStream {
  name: string;
  userId: string;
  streamType?: 'main' | 'sub';
  bitrate: number;
}

/** Which stream a quality is. */
export interface ResolutionConfig {
  userId: string;
  streamType: 'main' | 'sub';
  name: string;
}

/** switchPlaybackQuality. */
export interface SwitchPlaybackQualityOptions {
  quality?: string;
  streamList?: PlaybackQualityStream[];
  onSwitched?: (from: ResolutionConfig, to: ResolutionConfig) => void;
}

/** preconnect: warm scheduling and signalling for this identity before enterRoom, or drop that. */
export type PreconnectParams =
  /** roomId / strRoomId: the room to schedule for (the original's rule checks them; its typings leave them out). */
  | { enable: true; userId: string; userSig: string; sdkAppId: number; roomId?: number; strRoomId?: string }
  | { enable: false; userId?: never; userSig?: never; sdkAppId?: never };

/** Each experimental API's options. */
export interface ExperimentalAPIFunctionMap {
  enableAudioFrameEvent: EnableAudioFrameEventOptions;
  resumeRemotePlayer: RemotePlayerOptions;
  pauseRemotePlayer: RemotePlayerOptions;
  requestPictureInPicture: RequestPictureInPictureOptions;
  requestFullScreen: RequestFullScreenOptions;
  switchPlaybackQuality: SwitchPlaybackQualityOptions;
  preconnect: PreconnectParams;
}
