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
}

export type VideoProfileName = '120p' | '180p' | '240p' | '360p' | '480p' | '720p' | '1080p' | '1440p' | '4K' |
  '120p_2' | '180p_2' | '240p_2' | '360p_2' | '480p_2' | '720p_2' | '1080p_2' | '1440p_2' | '4K_2';

/** Where a video renders: an element id, an element, several elements, or null. */
export type View = string | HTMLElement | HTMLElement[] | null;

/** Options of startLocalVideo() / updateLocalVideo(). */
export interface LocalVideoConfig {
  view?: View;
  publish?: boolean;
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
  };
}

/** Options of startScreenShare(). */
export interface ScreenShareConfig {
  view?: View;
  publish?: boolean;
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
    qosPreference?: 'smooth' | 'clear';
  };
}

/** Options of updateScreenShare(). */
export interface UpdateScreenShareConfig extends ScreenShareConfig {
  option?: {
    fillMode?: 'contain' | 'cover' | 'fill';
    qosPreference?: 'smooth' | 'clear';
  };
}

/** Options of startLocalAudio(). */
export interface LocalAudioConfig {
  publish?: boolean;
  mute?: boolean;
  option?: {
    microphoneId?: string;
    profile?: 'standard' | 'standard-stereo' | 'high' | 'high-stereo';
    audioTrack?: MediaStreamTrack;
    captureVolume?: number;
    earMonitorVolume?: number;
    echoCancellation?: boolean;
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

/** The statistics event, every 2 s. */
export interface TRTCStatistics {
  rtt: number;
  downLoss: number;
  upLoss: number;
  bytesSent: number;
  bytesReceived: number;
  localStatistics: StreamStatistic;
  remoteStatistics: (StreamStatistic & { userId: string })[];
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
  'remote-user-exit': (event: { userId: string }) => void;
  'remote-audio-available': (event: { userId: string }) => void;
  'remote-audio-unavailable': (event: { userId: string }) => void;
  'remote-video-available': (event: { userId: string; streamType: 'main' | 'sub' }) => void;
  'remote-video-unavailable': (event: { userId: string; streamType: 'main' | 'sub' }) => void;
  'audio-volume': (event: { result: { userId: string; volume: number; floatVolume: number }[] }) => void;
  'audio-frame': (event: { data: Float32Array }) => void;
  'network-quality': (event: NetworkQuality) => void;
  'connection-state-changed': (event: { prevState: ConnectionState; state: ConnectionState }) => void;
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
}
