/**
 * The plugin API, the core's side of plugins: the context (the one object a plugin's constructor receives, and
 * the only way a plugin reaches the core — plugins are separate bundles that import these types), the plugin
 * manager (registration, start / update / stop) and the lazily loaded built-ins. It lives in the core: the core
 * never imports src/plugins/ (an eslint rule keeps it so). One file per area: audio.ts (the published
 * microphone), video.ts (camera-track processors), room.ts (signalling commands such as mix / CDN),
 * remote-video.ts (the encoded-frame tap); audio-player.ts holds the AudioPlayer plugin's public types, which the client's
 * startPlugin / updatePlugin overloads name.
 */
import type { AudioPluginContext } from './audio.js';
import type { VideoPluginContext } from './video.js';
import type { PluginSignal } from './room.js';
import type { RemoteVideoPluginContext } from './remote-video.js';
import type { FrameCipher } from '../transport/frame-pipes.js';

export type { AudioPluginContext, AudioProcessorStage } from './audio.js';
export type { CameraInfo, VideoPluginContext } from './video.js';
export type { PluginSignal, PluginSignalFailure, PluginSignalError } from './room.js';
export type { RemoteVideoPluginContext, RemoteVideoPluginEvent } from './remote-video.js';
export type { EncodedFrame, FrameCipher, FrameKind } from '../transport/frame-pipes.js';

/** The encoded frames of the room's links, for a plugin that transforms them all (CustomEncryption). */
export interface FramePluginContext {
  /**
   * Sets the cipher every published frame goes through last and every received frame first; undefined removes
   * it. False when it cannot apply: no encoded streams in this browser, or a link was already made without them.
   */
  setCipher(cipher: FrameCipher | undefined): boolean;
}

/** Builds an RtcError of the core (so `instanceof` and `code` work as for core errors). */
export type PluginErrorFactory = (init: { code: number; extraCode?: number; message: string; functionName?: string; data?: unknown }) => Error;

/** The room as a plugin sees it (empty strings / 0 before enterRoom). */
export interface PluginRoomInfo {
  sdkAppId: number;
  userId: string;
  roomId: number | string;
}

/** Logging for plugins: lines go to the SDK's log (console and upload). */
export interface PluginLog {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  /** The most recent log lines (formatted), oldest first. */
  recent(): string[];
  /** Subscribes to new log lines; returns the removal. */
  onLine(listener: (line: string) => void): () => void;
}

/** What the core hands a plugin's constructor. */
export interface PluginContext {
  /** The TRTC client the plugin belongs to (its public API: on / off / getAudioTrack …). */
  readonly client: unknown;
  /** Where the plugin's assets (wasm, worklets, models) are served; `use({plugin, assetsPath})` or create's. */
  readonly assetsPath: string;
  /** The Conclave server's origin (authorisation requests go there). */
  readonly serverOrigin: string;
  /** The server's SDK folder (`<origin>/sdk`), where plugin files are served. */
  readonly sdkBase: string;
  readonly errors: PluginErrorFactory;
  readonly log: PluginLog;
  room(): PluginRoomInfo;
  readonly audio: AudioPluginContext;
  readonly video: VideoPluginContext;
  /** Commands on the room's signalling channel (CDN publishing, mix transcoding). */
  readonly signal: PluginSignal;
  /** Remote videos: the encoded-frame tap and client events (the video decoder fallback). */
  readonly remoteVideo: RemoteVideoPluginContext;
  /** The encoded frames of every sender and receiver (end-to-end encryption). */
  readonly frames: FramePluginContext;
}
