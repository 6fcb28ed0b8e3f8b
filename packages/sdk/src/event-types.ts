import type { RtcError } from './errors/rtc-error.js';

/* The events the client emits and their payloads (public types, re-exported by types.ts). */

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
