import type { RtcError } from './errors/rtc-error.js';
import type { VideoProfile } from './media/profiles.js';
import type { PluginContext } from './plugin-api/index.js';

/**
 * A plugin: a class with a static name that the client instantiates through use() / create({plugins}).
 * Conclave's core never imports a plugin; plugins reach the core through this interface.
 */
export interface TRTCPlugin {
  /** The name startPlugin / updatePlugin / stopPlugin refer to. */
  readonly Name?: string;
  new (core: PluginCore): PluginInstance;
}

/** What the core offers a plugin: the plugin context (plugin-api). */
export type PluginCore = PluginContext;

/** A plugin instance. */
export interface PluginInstance {
  start(options?: unknown): Promise<unknown> | unknown;
  update?(options?: unknown): Promise<unknown> | unknown;
  stop(options?: unknown): Promise<unknown> | unknown;
  destroy?(): void;
}

/** A plugin with the path its assets are served from. */
export interface PluginWithAssets {
  plugin: TRTCPlugin;
  assetsPath?: string;
}

/** Options of TRTC.create(). */
export interface TRTCOptions {
  plugins?: TRTCPlugin[];
  /** Enables SEI messages (default false). */
  enableSEI?: boolean;
  /** Where plugin assets are served; defaults to next to the SDK build. */
  assetsPath?: string;
  volumeType?: number;
  userDefineRecordId?: string;
  /** Shows the dialog that resumes playback blocked by the autoplay policy (default true; also an enterRoom option). */
  enableAutoPlayDialog?: boolean;
  /** Accepted for compatibility (5.x): capture recovery after a device loss is always on in Conclave. */
  enableAutoSwitchWhenRecapturing?: boolean;
  /** Accepted for compatibility: iOS Safari volume control through Web Audio (no effect elsewhere). */
  enableVolumeControlInIOS?: boolean;
  /**
   * Conclave (not in the original): announce a lost signalling channel as RECONNECTING, then CONNECTED, as
   * Conclave's seed did, instead of the original's DISCONNECTED → CONNECTING (isReconnecting) → CONNECTED.
   */
  enableReconnectingState?: boolean;
}

/** A TURN server for proxy.turnServer. */
export interface TurnServer {
  url: string;
  username?: string;
  credential?: string;
  credentialType?: 'password';
}

/** Proxy settings: where scheduling and signalling go instead of the default server. */
export interface ProxyServer {
  websocketProxy?: string;
  loggerProxy?: string;
  turnServer?: TurnServer | TurnServer[];
  iceTransportPolicy?: RTCIceTransportPolicy;
  webtransportProxy?: string;
  /** Base URL of the scheduling service (Conclave: the server's origin). */
  scheduleProxy?: string;
  unifiedProxy?: string;
}

/** Options of switchRoom(): the room to move to (of the same type as the current one) and its credentials. */
export interface SwitchRoomConfig {
  roomId?: number;
  strRoomId?: string;
  privateMapKey?: string;
  /** The userSig for the new room. */
  userSig: string;
}

/** Options of enterRoom(). */
export interface EnterRoomConfig {
  sdkAppId: number;
  userId: string;
  userSig: string;
  roomId?: number;
  strRoomId?: string;
  scene?: 'rtc' | 'live';
  role?: 'anchor' | 'audience';
  autoReceiveAudio?: boolean;
  userDefinePushArgs?: string;
  pureAudioPushMode?: 1 | 2;
  /** Receive delay in ms (or `{ main, aux }`): the receivers' jitterBufferTarget where the browser has it. */
  jitterBufferDelay?: number | { main?: number; aux?: number };
  preferHW?: boolean;
  autoReceiveVideo?: boolean;
  privateMapKey?: string;
  latencyLevel?: number;
  businessInfo?: string;
  enableAutoPlayDialog?: boolean;
  proxy?: string | ProxyServer;
  userDefineRecordId?: string;
  playoutDelay?: { min: number; max: number };
  /** 5.15+: subscribe to this user's video while joining. Conclave accepts it and subscribes after the join. */
  quickStart?: { remoteUserId: string; small?: boolean; domain?: string };
}

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

/** Which stream getVideoTrack / getAudioTrack / getVideoSnapshot refer to. */
export interface TrackQuery {
  /** A remote user; omitted or '' for the local user. */
  userId?: string;
  streamType?: 'main' | 'sub';
  /** The processed track (after plugins) rather than the captured one. */
  processed?: boolean;
}

/** Options of sendSEIMessage(). */
export interface SEIMessageOptions {
  /** 243 (default) or 5 (then the payload starts with a 16-byte UUID). */
  seiPayloadType?: number;
  /** Send in the screen-share stream rather than the camera's. */
  toSubStream?: boolean;
}

/** A custom message to send (sendCustomMessage). */
export interface CustomMessageData {
  /** 1 to 10. */
  cmdId: number;
  /** 1 to 1000 bytes. */
  data: ArrayBuffer;
}

/** A custom message received (custom-message event). */
export interface CustomMessage extends CustomMessageData {
  userId: string;
  seq: number;
}

/** Network quality (network-quality event): 0 unknown, 1 excellent … 5 very bad, 6 disconnected. */
export interface NetworkQuality {
  uplinkNetworkQuality: number;
  downlinkNetworkQuality: number;
  uplinkRTT: number;
  uplinkLoss: number;
  downlinkRTT: number;
  downlinkLoss: number;
  pingResults?: { isPoorNetwork?: boolean; timestamp?: number; data?: { domain: string; cost: number }[] };
}

/** Freezes of a remote video while played (Conclave extension of the statistics report). */
export interface VideoFreezeStatistic {
  /** Video freezes (the remote track muted) and their total duration in ms, each capped at 5000 ms. */
  videoFreezeCount: number;
  videoFreezeDuration: number;
  /** Render freezes (2 fps or less while playing) and their total duration in ms. */
  renderFreezeCount: number;
  renderFreezeDuration: number;
}

/** One direction's figures in a statistics report. */
export interface StreamStatistic {
  audio: { bitrate: number; audioLevel: number };
  video: { width: number; height: number; frameRate: number; bitrate: number; videoType: 'big' | 'small' | 'sub'; freeze?: VideoFreezeStatistic }[];
}

/** A remote user's figures: those of StreamStatistic and the receive delay (5.12+, ms). */
export interface RemoteStreamStatistic {
  audio: StreamStatistic['audio'] & { jitterBufferDelay: number };
  video: (StreamStatistic['video'][number] & { jitterBufferDelay: number })[];
  userId: string;
}

/** The statistics event, every 2 s. */
export interface TRTCStatistics {
  rtt: number;
  downLoss: number;
  upLoss: number;
  bytesSent: number;
  bytesReceived: number;
  localStatistics: StreamStatistic;
  remoteStatistics: RemoteStreamStatistic[];
}

/** TRTC.isSupported()'s answer. */
export interface SupportResult {
  result: boolean;
  detail: {
    isBrowserSupported: boolean;
    isWebRTCSupported: boolean;
    isWebCodecsSupported: boolean;
    isMediaDevicesSupported: boolean;
    isScreenShareSupported: boolean;
    isSmallStreamSupported: boolean;
    isH264EncodeSupported: boolean;
    isH264DecodeSupported: boolean;
    isVp8EncodeSupported: boolean;
    isVp8DecodeSupported: boolean;
  };
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

/** Connection states of connection-state-changed. */
export type ConnectionState = 'DISCONNECTED' | 'CONNECTING' | 'CONNECTED' | 'RECONNECTING' | 'RECONNECTED';

/** Every event the client emits and its listener. */
export interface TRTCEventTypes {
  'error': (error: RtcError) => void;
  'autoplay-failed': (event: { userId: string; mediaType: 'audio' | 'video' | 'screen'; resume: () => Promise<void> }) => void;
  'kicked-out': (event: { reason: 'kick' | 'banned' | 'room_disband'; message?: string }) => void;
  'remote-user-enter': (event: { userId: string }) => void;
  /** reason (5.12+): 0 left, 1 timed out, 2 kicked, 3 became an audience of a live room (PEER_LEAVE_REASON). */
  'remote-user-exit': (event: { userId: string; reason?: 0 | 1 | 2 | 3 }) => void;
  'remote-audio-available': (event: { userId: string }) => void;
  'remote-audio-unavailable': (event: { userId: string }) => void;
  'remote-video-available': (event: { userId: string; streamType: 'main' | 'sub' }) => void;
  'remote-video-unavailable': (event: { userId: string; streamType: 'main' | 'sub' }) => void;
  'audio-volume': (event: { result: { userId: string; volume: number; floatVolume: number }[] }) => void;
  /**
   * PCM of a user's audio (callExperimentalAPI('enableAudioFrameEvent')), 40 ms a frame. As the original at run time,
   * `data` is the samples of a mono frame and [left, right] of a stereo one (typed as the original's typings).
   */
  'audio-frame': (event: { data: Float32Array; userId?: string; sampleRate?: number; channelCount?: number }) => void;
  'network-quality': (event: NetworkQuality) => void;
  /** isReconnecting (5.13+): true on the CONNECTING / CONNECTED of a reconnection. */
  'connection-state-changed': (event: { prevState: ConnectionState; state: ConnectionState; isReconnecting?: boolean }) => void;
  'audio-play-state-changed': (event: { userId: string; state: 'PLAYING' | 'PAUSED' | 'STOPPED'; reason: string }) => void;
  'video-play-state-changed': (event: { userId: string; streamType: 'main' | 'sub'; state: 'PLAYING' | 'PAUSED' | 'STOPPED'; reason: string }) => void;
  'screen-share-stopped': () => void;
  'device-changed': (event: { type: 'camera' | 'microphone' | 'speaker'; action: 'add' | 'remove' | 'active'; device: MediaDeviceInfo }) => void;
  'publish-state-changed': (event: { mediaType: 'audio' | 'video' | 'screen'; state: 'starting' | 'started' | 'stopped'; prevState: 'starting' | 'started' | 'stopped'; reason?: 'timeout' | 'error' | 'api-call'; error?: RtcError }) => void;
  'track': (event: { userId: string; streamType?: 'main' | 'sub'; track: MediaStreamTrack; sourceTrack: MediaStreamTrack }) => void;
  'statistics': (event: TRTCStatistics) => void;
  'sei-message': (event: { data: ArrayBuffer; userId: string; streamType: 'main' | 'sub'; seiPayloadType: number }) => void;
  'custom-message': (event: CustomMessage) => void;
  'first-video-frame': (event: { userId: string; streamType: 'main' | 'sub'; width: number; height: number }) => void;
  'video-decode-downgrade-state-changed': (event: unknown) => void;
  'layerData': (event: unknown) => void;
  /** A permission TRTC.getPermissions read changed (typed as the original's; a state it cannot read is null). */
  'permission-state-change': (event: { camera: PermissionState; microphone: PermissionState }) => void;
  /** A local or remote video's size changed; userId '' for local video before enterRoom. */
  'video-size-changed': (event: { userId: string; streamType: 'main' | 'sub'; newWidth: number; newHeight: number }) => void;
  /** A transcriber robot's sentence / start and stop, to every user of its room (RealtimeTranscriber plugin). */
  'realtime-transcriber-message': (event: RealtimeTranscriberMessageEvent) => void;
  'realtime-transcriber-state-changed': (event: RealtimeTranscriberStateEvent) => void;
  'picture-in-picture-state-changed': (event: { userId: string; streamType: 'main' | 'sub'; isPictureInPicture: boolean; pictureInPictureWindow?: PictureInPictureWindow }) => void;
  'full-screen-state-changed': (event: { userId: string; streamType: 'main' | 'sub'; isFullScreen: boolean }) => void;
  /**
   * Conclave only: how many audience members the room has (this user included when it is one). A live room's
   * audience is hidden from remote-user-enter / -exit as in the original; this counts it. Emitted once per join
   * and on each change, at most once a second (docs/behaviour.md §3.5).
   */
  'audience-count-changed': (event: { count: number }) => void;
}

/** A transcription (realtime-transcriber-message). */
export interface RealtimeTranscriberMessageEvent {
  segmentId: string;
  speakerUserId: string;
  sourceText: string;
  translationTexts: { language: string; text: string }[];
  timestamp: number;
  isCompleted: boolean;
  robotId: string;
}

/** A transcriber's state (realtime-transcriber-state-changed). */
export interface RealtimeTranscriberStateEvent {
  state: 'started' | 'stopped';
  roomId: string | number;
  transcriberRobotId: string;
  sourceLanguage?: string;
  error?: number;
  errorMessage?: string;
}

/** Camera / microphone permission states (TRTC.getPermissions, permission-state-change); null where not queryable. */
export interface PermissionResult {
  camera: PermissionState | null;
  microphone: PermissionState | null;
}

/** Options of TRTC.getPermissions(). */
export interface PermissionOption {
  /** Ask for the permissions not yet granted (default true). */
  request?: boolean;
  /** Default ['camera', 'microphone']. */
  types?: ('camera' | 'microphone')[];
}
