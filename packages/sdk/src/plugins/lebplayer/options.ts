/** The option and callback shapes of the LEBPlayer plugin (the original's, for apps that type against them). */

/** A licence for the low-latency live player. */
export interface LicenseConfig {
  secretKey: string;
  encrypted: string;
  signature: string;
}

/** Received audio statistics. */
export interface AudioStat {
  /** kbit/s */
  bitrate: number;
  /** 0–1 */
  volume: number;
  /** percent */
  packetLossRate: number;
  /** ms */
  jitterBufferDelay: number;
  bytesReceived: number;
  packetsReceived: number;
  packetsLost: number;
}

/** Received video statistics. */
export interface VideoStat {
  bitrate: number;
  frameRate: number;
  width: number;
  height: number;
  packetLossRate: number;
  jitterBufferDelay: number;
  bytesReceived: number;
  packetsReceived: number;
  packetsLost: number;
  framesDecoded: number;
}

/** Network statistics (round-trip time in ms). */
export interface NetworkStat {
  rtt: number;
}

/** What onStats reports. */
export interface MediaStats {
  audio: AudioStat;
  video: VideoStat;
  network: NetworkStat;
}

export type PlayState = 'PLAYING' | 'PAUSED' | 'STOPPED';
export type MediaType = 'audio' | 'video';
export type FillMode = 'contain' | 'cover' | 'fill';
export type PlayerAction = 'pause' | 'resume';

/** The player's callbacks. */
export interface CallBack {
  onLoadStart?: (type: MediaType) => void;
  onPlayStateChanged?: (event: { type: MediaType; state: PlayState; reason?: string }) => void;
  onAutoPlayFailed?: (event: { type: MediaType; resume: () => Promise<void> }) => void;
  onError?: (error: Error) => void;
  onSEIMessage?: (event: { data: ArrayBuffer; seiPayloadType: number }) => void;
  onStats?: (stats: MediaStats) => void;
  onPictureInPictureStateChanged?: (event: { isPictureInPicture: boolean; pictureInPictureWindow?: PictureInPictureWindow }) => void;
  onFullScreenStateChanged?: (event: { isFullScreen: boolean }) => void;
}

/** Options of startPlugin('LEBPlayer'). */
export interface StartLEBPlayerOption {
  /** The element (or its id) to play in. */
  view: string | HTMLElement;
  /** The low-latency live stream's URL. */
  url: string;
  licenseConfig?: LicenseConfig;
  muted?: boolean;
  /** 0–500, default 100. */
  volume?: number;
  fillMode?: FillMode;
  loggerConfig: { sdkAppId: number; userId: string };
  callback?: CallBack;
}

/** Options of updatePlugin('LEBPlayer'). */
export interface UpdateLEBPlayerOption {
  view?: string | HTMLElement;
  volume?: number;
  muted?: boolean;
  fillMode?: FillMode;
  action?: PlayerAction;
  fullScreen?: boolean;
  pictureInPicture?: boolean;
}
