import type { VideoProfile } from './media/profiles.js';

/* The options of the local and remote media calls (public types, re-exported by types.ts). */

export type VideoProfileName = '120p' | '180p' | '240p' | '360p' | '480p' | '720p' | '1080p' | '1440p' | '4K' |
  '120p_2' | '180p_2' | '240p_2' | '360p_2' | '480p_2' | '720p_2' | '1080p_2' | '1440p_2' | '4K_2';

/** Where a video renders: an element id, an element, several elements, or null. */
export type View = string | HTMLElement | HTMLElement[] | null;

/** Options of startLocalVideo() / updateLocalVideo(). */
export interface LocalVideoConfig {
  view?: View;
  publish?: boolean;
  /** Publish even while another call is publishing (5.12+); Conclave publishes each call in turn anyway. */
  forcePublish?: boolean;
  mute?: boolean | string;
  option?: {
    cameraId?: string;
    useFrontCamera?: boolean;
    profile?: VideoProfileName | VideoProfile;
    fillMode?: 'contain' | 'cover' | 'fill';
    /** true / false, or 'view' (default), 'publish' or 'both'. */
    mirror?: boolean | 'view' | 'publish' | 'both' | (string & Record<never, never>);
    small?: VideoProfileName | VideoProfile | boolean;
    qosPreference?: 'smooth' | 'clear';
    videoTrack?: MediaStreamTrack;
    avoidCropping?: boolean;
    /** Rotates the published and previewed camera picture clockwise (5.11+). */
    rotation?: 0 | 90 | 180 | 270;
  };
}

/** Options of startScreenShare(). */
export interface ScreenShareConfig {
  view?: View;
  publish?: boolean;
  /** 'sub' (default) or 'main': share the screen as the main video stream (5.13+). */
  streamType?: 'main' | 'sub';
  /** Capture the system audio but do not publish it (5.13+). */
  muteSystemAudio?: boolean;
  option?: {
    profile?: '480p' | '480p_2' | '720p' | '720p_2' | '1080p' | '1080p_2' | VideoProfile;
    fillMode?: 'contain' | 'cover' | 'fill';
    systemAudio?: boolean;
    echoCancellation?: boolean;
    autoGainControl?: boolean;
    noiseSuppression?: boolean;
    audioTrack?: MediaStreamTrack;
    videoTrack?: MediaStreamTrack;
    captureElement?: HTMLElement;
    preferDisplaySurface?: 'current-tab' | 'tab' | 'window' | 'monitor';
    /** Whether the browser offers the current tab in its picker (getDisplayMedia's selfBrowserSurface). */
    selfBrowserSurface?: 'include' | 'exclude';
    qosPreference?: 'smooth' | 'clear';
  };
}

/** Options of updateScreenShare(). */
export interface UpdateScreenShareConfig extends ScreenShareConfig {
  option?: {
    fillMode?: 'contain' | 'cover' | 'fill';
    /** A new encoding during the share: capture size and rate, bitrate (5.18). */
    profile?: '480p' | '480p_2' | '720p' | '720p_2' | '1080p' | '1080p_2' | VideoProfile;
    qosPreference?: 'smooth' | 'clear';
    /** Replace the shared video / audio track (5.13+). */
    videoTrack?: MediaStreamTrack;
    audioTrack?: MediaStreamTrack;
  };
}

/** Options of startLocalAudio(). */
export interface LocalAudioConfig {
  publish?: boolean;
  /** true mutes what is sent; 'microphone' mutes only the microphone (mixed music still sent, 5.15+). */
  mute?: boolean | 'microphone';
  /** Keep the audio-volume figure of the muted microphone (5.13+). */
  muteKeepVolumeDetection?: boolean;
  option?: {
    microphoneId?: string;
    profile?: 'standard' | 'standard-stereo' | 'high' | 'high-stereo';
    audioTrack?: MediaStreamTrack;
    captureVolume?: number;
    earMonitorVolume?: number;
    /** true / 'all' cancel the echo of every sound this page plays; 'remote-only' of the remote users' audio. */
    echoCancellation?: boolean | 'remote-only' | 'all';
    autoGainControl?: boolean;
    noiseSuppression?: boolean;
  };
}

/** Options of updateLocalAudio(): those of startLocalAudio() but the profile. */
export interface UpdateLocalAudioConfig extends LocalAudioConfig {
  option?: Omit<NonNullable<LocalAudioConfig['option']>, 'profile'>;
}

/** Options of stopRemoteVideo(). */
export interface StopRemoteVideoConfig {
  /** A user, or '*' for everyone. */
  userId: string;
  streamType?: 'main' | 'sub';
}

/** Options of startRemoteVideo() / updateRemoteVideo(). */
export interface RemoteVideoConfig {
  userId: string;
  streamType: 'main' | 'sub';
  view?: View;
  option?: {
    fillMode?: 'contain' | 'cover' | 'fill';
    mirror?: boolean;
    small?: boolean;
    receiveWhenViewVisible?: boolean;
    viewRoot?: HTMLElement;
    canvasRender?: boolean;
    poster?: string;
    /** Lets the user drag the view (5.15+). */
    draggable?: boolean;
    /** Plays the video in a picture-in-picture window (5.15+). */
    pictureInPicture?: boolean;
    /** Plays the video full screen (5.15+). */
    fullScreen?: boolean;
  };
}

/** Which stream getVideoTrack / getAudioTrack / getVideoSnapshot refer to. */
export interface TrackQuery {
  /** A remote user; omitted or '' for the local user. */
  userId?: string;
  streamType?: 'main' | 'sub';
  /** The processed track (after plugins) rather than the captured one. */
  processed?: boolean;
}
