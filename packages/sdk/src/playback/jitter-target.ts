import type { EnterRoomConfig } from '../types.js';

/** The largest jitterBufferTarget browsers accept (ms; W3C webrtc-extensions). */
const MAX_TARGET_MS = 4000;

/** Receive delays (ms) asked for, per stream kind: `main` for audio and the main video, `aux` for the screen. */
export interface JitterTargets {
  main?: number;
  aux?: number;
}

/**
 * What enterRoom asks of receive delays: `jitterBufferDelay` (ms, or `{main, aux}` as the original's
 * internals take it) wins; else `playoutDelay.min` (the original asks its server for a playout delay;
 * here the browser's receivers hold it).
 */
export function jitterTargets(config: Pick<EnterRoomConfig, 'jitterBufferDelay' | 'playoutDelay'> | undefined): JitterTargets {
  const delay = config?.jitterBufferDelay as number | { main?: number; aux?: number } | undefined;
  const clamp = (ms: unknown) => (typeof ms === 'number' && Number.isFinite(ms) ? Math.min(MAX_TARGET_MS, Math.max(0, ms)) : undefined);
  if (typeof delay === 'number') return { main: clamp(delay), aux: clamp(delay) };
  if (delay && typeof delay === 'object') return { main: clamp(delay.main), aux: clamp(delay.aux) };
  const min = clamp(config?.playoutDelay?.min);
  return min === undefined ? {} : { main: min, aux: min };
}

/**
 * Sets a receiver's jitter buffer target for its slot; nothing when none is asked for or the browser lacks
 * jitterBufferTarget (Chromium 114+, Safari 18+).
 */
export function applyJitterTarget(receiver: RTCRtpReceiver, slot: 'audio' | 'video' | 'aux', targets: JitterTargets): void {
  const ms = slot === 'aux' ? targets.aux : targets.main;
  if (ms === undefined || !('jitterBufferTarget' in receiver)) return;
  (receiver as RTCRtpReceiver & { jitterBufferTarget: number | null }).jitterBufferTarget = ms;
}
