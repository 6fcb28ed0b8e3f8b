/**
 * TRTCVideoDecoder (plugins/video-decoder): decodes a remote video outside the browser's media pipeline —
 * WebCodecs, then the wasm software decoder with the webgl renderer, then with the video-frame renderer
 * (docs/behaviour.md §9) — from the encoded frames the core taps when the schedule's videoDecodeFallback is on. A
 * built-in: startPlugin('TRTCVideoDecoder', { userId, streamType, type }) loads it from the server.
 */
import type { PluginContext } from '../../plugin-api/index.js';
import type { RendererKind } from './chain.js';
import { DecodeSession, type SessionOptions } from './session.js';
import type { InjectedFailure } from './worker/protocol.js';

/** The original's decoder preference names (its typings export them). */
export type HardwareAcceleration = 'prefer-hardware' | 'prefer-software' | 'no-preference';

/** A decoder configuration (the original's typings export the shape). */
export interface VideoDecoderConfig {
  codec: string;
  hardwareAcceleration?: HardwareAcceleration;
}

/** startPlugin / updatePlugin options (the original's shape: a track or userId + streamType). */
export interface VideoDecoderStartOption {
  userId?: string;
  streamType?: 'main' | 'sub';
  /** The remote track (else found from userId / streamType). */
  track?: MediaStreamTrack;
  /** Where the chain starts: 'auto' / 'webCodecs' at WebCodecs, 'wasm' at the software decoder; 'mock' takes `mock`. */
  type?: 'auto' | 'webCodecs' | 'wasm' | 'mock';
  /** The software decoder's renderer when type is 'wasm' (default 'webgl'). */
  renderer?: RendererKind;
  config?: { codec?: string };
  /** Tests: failures injected per attempt ('create' | 'config' | 'decode' | 'context' | 'render' | null) and a simulated decode time. */
  mock?: { failures?: (InjectedFailure | null)[]; decodeDelayMs?: number };
}

export interface VideoDecoderStopOption {
  userId?: string;
  streamType?: 'main' | 'sub';
  track?: MediaStreamTrack;
}

type Client = { getVideoTrack(query: { userId: string; streamType: 'main' | 'sub' }): MediaStreamTrack | null };

export class TRTCVideoDecoder {
  static readonly Name = 'TRTCVideoDecoder';
  private readonly _ctx: PluginContext;
  private readonly _sessions = new Map<string, DecodeSession>();
  private _floor = 0;

  constructor(ctx: PluginContext) {
    this._ctx = ctx;
  }

  getName(): string {
    return TRTCVideoDecoder.Name;
  }

  getAlias(): string {
    return 'vd';
  }

  private _key(option: VideoDecoderStopOption | undefined, functionName: string): { key: string; userId: string; streamType: 'main' | 'sub'; track: MediaStreamTrack } {
    const userId = option?.userId ?? '';
    const streamType = option?.streamType === 'sub' ? 'sub' : 'main';
    const track = option?.track ?? (userId ? (this._ctx.client as Client).getVideoTrack({ userId, streamType }) : null);
    if (!track) throw this._ctx.errors({ code: 5100, extraCode: 5102, message: `TRTCVideoDecoder needs a playing remote video: no ${streamType} video track of '${userId}'`, functionName });
    return { key: track.id, userId, streamType, track };
  }

  /**
   * Decodes a remote video with the plugin (restarting it if already decoding).
   * @throws RtcError INVALID_PARAMETER when there is no such remote video; ENV_NOT_SUPPORTED (extra 5210) when
   * its frames are not tapped (the server's videoDecodeFallback is off, or enableSEI is on).
   */
  start(option?: VideoDecoderStartOption): void {
    const { key, userId, streamType, track } = this._key(option, 'startPlugin');
    this._sessions.get(key)?.stop();
    const options: SessionOptions = { userId, streamType, track, type: option?.type ?? 'auto', codec: option?.config?.codec ?? 'avc1.42e01f',
      ...(option?.renderer ? { renderer: option.renderer } : {}), ...(option?.mock ? { mock: option.mock } : {}) };
    const session = new DecodeSession(this._ctx, options);
    session.setPressureFloor(this._floor);
    session.start();
    this._sessions.set(key, session);
  }

  /**
   * Restarts a decoder with other options (type, renderer); `{ pressureFloor }` alone sets the lowest downgrade
   * level of every decoder (see setPressureFloor).
   */
  update(option?: VideoDecoderStartOption & { pressureFloor?: number }): void {
    if (typeof option?.pressureFloor === 'number' && !option.userId && !option.track) {
      this.setPressureFloor(option.pressureFloor);
      return;
    }
    this.start(option);
  }

  /** Stops decoding a remote video; the player shows it again. */
  stop(option?: VideoDecoderStopOption): void {
    if (!option?.track && !option?.userId) {
      for (const session of this._sessions.values()) session.stop();
      this._sessions.clear();
      return;
    }
    const { key } = this._key(option, 'stopPlugin');
    this._sessions.get(key)?.stop();
    this._sessions.delete(key);
  }

  /** Keeps every decoder at or above a downgrade level (e.g. from a compute-pressure monitor); 0 lifts it. */
  setPressureFloor(level: number): void {
    this._floor = level;
    for (const session of this._sessions.values()) session.setPressureFloor(level);
  }

  destroy(): void {
    this.stop();
  }
}

export default TRTCVideoDecoder;
