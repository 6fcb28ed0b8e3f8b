import type { Emitter } from '../common/emitter.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import type { log } from '../log/logger.js';
import type { TRTCEventTypes } from '../types.js';
import { validateBoolean, validateUserIdArg } from '../validate/client.js';
import type { EnableAudioFrameEventOptions } from './types.js';

/** A frame is 40 ms of audio, as the original's. */
const FRAME_SECONDS = 0.04;
const FN = 'enableAudioFrameEvent';

/** What the taps read of the client. */
export interface AudioFrameHost {
  readonly events: Emitter<TRTCEventTypes>;
  /** The local microphone's track ('' in the options). */
  localAudioTrack(): MediaStreamTrack | undefined;
  /** A remote user's received audio track. */
  remoteAudioTrack(userId: string): MediaStreamTrack | undefined;
  /** The remote users whose audio is received now. */
  remoteUsersWithAudio(): string[];
  /** The core's logger (this file is a lazily loaded asset: its own copy of the logger would log apart). */
  readonly log: Pick<typeof log, 'info' | 'warn'>;
}

interface TapConfig {
  sampleRate: number;
  channelCount: 1 | 2;
  port?: MessagePort;
}

/** One track's PCM: a Web Audio context at the asked rate that cuts the samples into 40 ms frames. */
class Tap {
  readonly track: MediaStreamTrack;
  private readonly _ctx: AudioContext;
  private readonly _source: MediaStreamAudioSourceNode;
  private readonly _node: ScriptProcessorNode;
  private readonly _sink: GainNode;

  constructor(track: MediaStreamTrack, config: TapConfig, deliver: (data: Float32Array | Float32Array[]) => void) {
    this.track = track;
    // The context's rate is the asked one: Chromium resamples the track into it.
    this._ctx = new AudioContext({ sampleRate: config.sampleRate });
    this._source = this._ctx.createMediaStreamSource(new MediaStream([track]));
    // ScriptProcessorNode: no worklet module to load; the frames are cut on the main thread anyway, where the event fires.
    this._node = this._ctx.createScriptProcessor(4096, config.channelCount, config.channelCount);
    this._sink = this._ctx.createGain();
    this._sink.gain.value = 0; // the node must reach the destination to run; silently
    const size = Math.floor(config.sampleRate * FRAME_SECONDS);
    let frame = Array.from({ length: config.channelCount }, () => new Float32Array(size));
    let filled = 0;
    this._node.onaudioprocess = ({ inputBuffer }) => {
      const channels = Array.from({ length: config.channelCount }, (_, c) => inputBuffer.getChannelData(Math.min(c, inputBuffer.numberOfChannels - 1)));
      let offset = 0;
      while (offset < channels[0].length) {
        const take = Math.min(size - filled, channels[0].length - offset);
        channels.forEach((samples, c) => frame[c].set(samples.subarray(offset, offset + take), filled));
        filled += take;
        offset += take;
        if (filled === size) {
          deliver(config.channelCount === 1 ? frame[0] : frame);
          frame = Array.from({ length: config.channelCount }, () => new Float32Array(size));
          filled = 0;
        }
      }
    };
    this._source.connect(this._node);
    this._node.connect(this._sink);
    this._sink.connect(this._ctx.destination);
    this._ctx.resume().catch(() => undefined); // a context the page may not start yet: frames flow once it may
  }

  stop(): void {
    this._node.onaudioprocess = null;
    this._source.disconnect();
    this._node.disconnect();
    void this._ctx.close().catch(() => undefined); // closed already: nothing to release
  }
}

/**
 * enableAudioFrameEvent: PCM `audio-frame` events (or messages on a MessagePort) of the local microphone
 * (userId ''), a remote user, or every remote user ('*', also those whose audio arrives later), at the asked
 * sample rate (default 48000) and channel count (1 or 2, default 1), 40 ms a frame.
 */
export class AudioFrameTaps {
  private readonly _host: AudioFrameHost;
  private readonly _configs = new Map<string, TapConfig>();
  private readonly _taps = new Map<string, Tap>();
  /** Follows tracks that come and go (a microphone started later, a user's audio arriving) while configured. */
  private _timer: ReturnType<typeof setInterval> | undefined;

  constructor(host: AudioFrameHost) {
    this._host = host;
  }

  /** Applies an enableAudioFrameEvent call. @throws RtcError INVALID_PARAMETER for bad options. */
  configure(options: EnableAudioFrameEventOptions): void {
    if (typeof options !== 'object' || options === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'options is required', FN);
    const enable = validateBoolean(options.enable, 'enable', FN);
    const userId = validateUserIdArg(options.userId, FN);
    const sampleRate = options.sampleRate ?? 48000;
    if (typeof sampleRate !== 'number' || !(sampleRate >= 8000 && sampleRate <= 96000)) throw invalidParameter(EXTRA_CODE.RANGE, 'sampleRate must be between 8000 and 96000', FN);
    const channelCount = options.channelCount ?? 1;
    if (channelCount !== 1 && channelCount !== 2) throw invalidParameter(EXTRA_CODE.RANGE, 'channelCount must be 1 or 2', FN);
    if (options.port !== undefined && !(typeof MessagePort !== 'undefined' && options.port instanceof MessagePort)) {
      throw invalidParameter(EXTRA_CODE.INSTANCE, 'port must be a MessagePort', FN);
    }
    const keys = userId === '*' ? ['*', ...this._host.remoteUsersWithAudio()] : [userId];
    for (const key of keys) this._stop(key);
    if (!enable) {
      this._configs.delete(userId);
      if (userId === '*') for (const key of [...this._taps.keys()]) if (key !== '' && !this._configs.has(key)) this._stop(key);
      if (this._configs.size === 0) this._stopTimer();
      return;
    }
    this._configs.set(userId, { sampleRate, channelCount, port: options.port });
    this.refresh();
    // A timer rather than the client's events: an app's off('*') must not stop the frames.
    this._timer ??= setInterval(() => this.refresh(), 500);
  }

  /** Starts (or restarts on a new track) the taps the configuration asks for: call when audio tracks change. */
  refresh(): void {
    const wanted = new Map<string, TapConfig>();
    const all = this._configs.get('*');
    if (all) for (const userId of this._host.remoteUsersWithAudio()) wanted.set(userId, all);
    for (const [userId, config] of this._configs) if (userId !== '*') wanted.set(userId, config);
    for (const [userId, config] of wanted) {
      const track = userId === '' ? this._host.localAudioTrack() : this._host.remoteAudioTrack(userId);
      const tap = this._taps.get(userId);
      if (tap && tap.track === track) continue;
      this._stop(userId);
      if (!track) continue;
      try {
        this._taps.set(userId, new Tap(track, config, (data) => this._deliver(userId, config, data)));
      } catch (error) {
        this._host.log.warn(`audio frames of ${userId || 'the microphone'} unavailable:`, error);
      }
    }
    for (const userId of [...this._taps.keys()]) if (!wanted.has(userId)) this._stop(userId);
  }

  private _deliver(userId: string, config: TapConfig, data: Float32Array | Float32Array[]): void {
    const frame = { userId, sampleRate: config.sampleRate, channelCount: config.channelCount, data: data as Float32Array };
    if (config.port) config.port.postMessage(frame);
    else this._host.events.emit('audio-frame', frame);
  }

  private _stop(userId: string): void {
    this._taps.get(userId)?.stop();
    this._taps.delete(userId);
  }

  /** Stops every tap (destroy). */
  release(): void {
    for (const userId of [...this._taps.keys()]) this._stop(userId);
    this._configs.clear();
    this._stopTimer();
  }

  private _stopTimer(): void {
    clearInterval(this._timer);
    this._timer = undefined;
  }
}
