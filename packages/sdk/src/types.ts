import type { RtcError } from './errors/rtc-error.js';
import type { VideoProfile } from './media/profiles.js';

/** Options of TRTC.create(). */
export interface TRTCOptions {
  plugins?: unknown[];
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
    mirror?: boolean | 'view' | 'publish' | 'both';
    small?: VideoProfileName | VideoProfile | boolean;
    qosPreference?: 'smooth' | 'clear';
    videoTrack?: MediaStreamTrack;
    avoidCropping?: boolean;
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
  'autoplay-failed': (event: { userId: string; resume: () => Promise<void> }) => void;
  'kicked-out': (event: { reason: 'kick' | 'banned' | 'room_disband'; message?: string }) => void;
  'remote-user-enter': (event: { userId: string }) => void;
  'remote-user-exit': (event: { userId: string }) => void;
  'remote-audio-available': (event: { userId: string }) => void;
  'remote-audio-unavailable': (event: { userId: string }) => void;
  'remote-video-available': (event: { userId: string; streamType: 'main' | 'sub' }) => void;
  'remote-video-unavailable': (event: { userId: string; streamType: 'main' | 'sub' }) => void;
  'audio-volume': (event: { result: { userId: string; volume: number }[] }) => void;
  'audio-frame': (event: { data: Float32Array }) => void;
  'network-quality': (event: {
    uplinkNetworkQuality: number; downlinkNetworkQuality: number;
    uplinkRTT: number; uplinkLoss: number; downlinkRTT: number; downlinkLoss: number;
  }) => void;
  'connection-state-changed': (event: { prevState: ConnectionState; state: ConnectionState }) => void;
  'audio-play-state-changed': (event: { userId: string; state: 'PLAYING' | 'PAUSED' | 'STOPPED'; reason: string }) => void;
  'video-play-state-changed': (event: { userId: string; streamType: 'main' | 'sub'; state: 'PLAYING' | 'PAUSED' | 'STOPPED'; reason: string }) => void;
  'screen-share-stopped': () => void;
  'device-changed': (event: { type: 'camera' | 'microphone' | 'speaker'; action: 'add' | 'remove' | 'active'; device: MediaDeviceInfo }) => void;
  'publish-state-changed': (event: { mediaType: 'audio' | 'video' | 'screen'; state: 'starting' | 'started' | 'stopped'; prevState: 'starting' | 'started' | 'stopped'; reason?: 'timeout' | 'error' | 'api-call'; error?: RtcError }) => void;
  'track': (event: { userId: string; streamType?: 'main' | 'sub'; track: MediaStreamTrack; sourceTrack?: MediaStreamTrack }) => void;
  'statistics': (event: unknown) => void;
  'sei-message': (event: { data: ArrayBuffer; userId: string; streamType: 'main' | 'sub'; seiPayloadType: number }) => void;
  'custom-message': (event: { userId: string; cmdId: number; seq: number; data: ArrayBuffer }) => void;
  'first-video-frame': (event: { userId: string; streamType: 'main' | 'sub'; width: number; height: number }) => void;
  'video-decode-downgrade-state-changed': (event: unknown) => void;
  'layerData': (event: unknown) => void;
}
