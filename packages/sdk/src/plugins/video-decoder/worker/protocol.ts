import type { DecoderKind } from '../chain.js';

/** A failure to inject (tests, type 'mock'): where the attempt breaks. */
export type InjectedFailure = 'create' | 'config' | 'decode' | 'context' | 'render';

/** Main thread → decode worker. */
export type ToWorker =
  | { type: 'init'; tap: MessagePort; decoder: DecoderKind; codec: string; wasmUrl: string; fail?: InjectedFailure; decodeDelayMs?: number; floor: number }
  | { type: 'floor'; floor: number };

/** Counters of one decoder attempt. */
export interface DecodeCounters {
  received: number;
  keyFrames: number;
  decoded: number;
  dropped: number;
}

/** Decode worker → main thread. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'error'; code: number; message: string }
  | { type: 'frame'; frame: VideoFrame; draw: boolean }
  | { type: 'i420'; data: ArrayBuffer; width: number; height: number; draw: boolean }
  | { type: 'level'; level: number; prevLevel: number; counters: DecodeCounters; decodeMs: number | undefined; frameIntervalMs: number };

/** An encoded frame from the core's tap (playback/decode-tap.ts). */
export interface TappedFrame {
  data: ArrayBuffer;
  key: boolean;
  timestamp: number;
  width: number;
  height: number;
  mimeType: string;
}
