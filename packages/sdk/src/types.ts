import type { PluginContext } from './plugin-api/index.js';

/*
 * The SDK's public types (index.ts exports them): the client, its plugins and entering a room here; the media calls'
 * options (media-options.ts) and the events (event-types.ts) re-exported from their files.
 */

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

/** Options of sendSEIMessage(). */
export interface SEIMessageOptions {
  /** 243 (default) or 5 (then the payload starts with a 16-byte UUID). */
  seiPayloadType?: number;
  /** Send in the screen-share stream rather than the camera's. */
  toSubStream?: boolean;
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

// The media calls' options and the events live in their own files; the public surface is all of them, from here.
export type {
  VideoProfileName, View, LocalVideoConfig, ScreenShareConfig, UpdateScreenShareConfig, LocalAudioConfig, UpdateLocalAudioConfig,
  StopRemoteVideoConfig, RemoteVideoConfig, TrackQuery,
} from './media-options.js';
export type {
  ConnectionState, TRTCEventTypes, RealtimeTranscriberMessageEvent, RealtimeTranscriberStateEvent, CustomMessageData, CustomMessage,
  NetworkQuality, VideoFreezeStatistic, StreamStatistic, RemoteStreamStatistic, TRTCStatistics,
} from './event-types.js';
