import type { VoiceParams } from './voices.js';

/**
 * The voice changer's signal processing, sample by sample (mono): pitch shifting by two crossfaded read heads
 * on a delay line (a read speed of `ratio` times the write speed shifts every frequency by `ratio`), then
 * drive, ring modulation, tremolo, echo and one-pole filters. Self-contained on purpose: its source text is
 * also the AudioWorklet's (worklet.ts), and unit tests run it directly. No references outside the class.
 */
export class VoiceDsp {
  private readonly _rate: number;
  private readonly _buf: Float32Array;
  private _write = 0;
  private _phase = 0;
  private readonly _window: number;
  private readonly _echo: Float32Array;
  private _echoPos = 0;
  private _t = 0;
  private _lp = 0;
  private _hpIn = 0;
  private _hpOut = 0;
  private _p: VoiceParams;

  constructor(sampleRate: number, params: VoiceParams) {
    this._rate = sampleRate;
    // ~43 ms heads at 48 kHz: long enough for a 100 Hz voice, short enough not to smear.
    this._window = Math.round(sampleRate * 0.0427);
    this._buf = new Float32Array(this._window * 2 + 4);
    this._echo = new Float32Array(Math.ceil(sampleRate * 0.5));
    this._p = params;
  }

  set params(params: VoiceParams) {
    this._p = params;
  }

  get params(): VoiceParams {
    return this._p;
  }

  /** Reads the delay line `delay` samples back (linear interpolation). */
  private _tap(delay: number): number {
    const n = this._buf.length;
    let pos = this._write - delay;
    while (pos < 0) pos += n;
    const i = Math.floor(pos);
    const frac = pos - i;
    return this._buf[i % n] * (1 - frac) + this._buf[(i + 1) % n] * frac;
  }

  /** Processes a block in place. */
  process(block: Float32Array): void {
    const p = this._p;
    const rate = this._rate;
    const twoPi = 2 * Math.PI;
    const shifting = p.ratio !== 1 || p.vibratoDepth > 0;
    const lpA = p.lowpassHz > 0 ? 1 - Math.exp(-twoPi * p.lowpassHz / rate) : 1;
    const hpA = p.highpassHz > 0 ? Math.exp(-twoPi * p.highpassHz / rate) : 0;
    const echoLen = Math.min(this._echo.length - 1, Math.round(p.echoMs * rate / 1000));
    const driveNorm = p.drive > 0 ? Math.tanh(p.drive) : 1;
    for (let s = 0; s < block.length; s++) {
      const t = this._t / rate;
      this._t += 1;
      let x = block[s];
      if (shifting) {
        this._buf[this._write] = x;
        const ratio = p.ratio * (1 + p.vibratoDepth * Math.sin(twoPi * p.vibratoRate * t));
        // The delay grows by (1 - ratio) samples per sample; the phase wraps over one window.
        this._phase += (1 - ratio) / this._window;
        this._phase -= Math.floor(this._phase);
        const p2 = (this._phase + 0.5) % 1;
        const w1 = Math.sin(Math.PI * this._phase);
        const w2 = Math.sin(Math.PI * p2);
        x = this._tap(1 + this._phase * this._window) * w1 * w1 + this._tap(1 + p2 * this._window) * w2 * w2;
        this._write = (this._write + 1) % this._buf.length;
      }
      if (p.drive > 0) x = Math.tanh(p.drive * x) / driveNorm;
      if (p.ringMix > 0) x = x * (1 - p.ringMix) + x * p.ringMix * Math.sin(twoPi * p.ringHz * t);
      if (p.tremoloDepth > 0) x *= 1 - p.tremoloDepth * (0.5 + 0.5 * Math.sin(twoPi * p.tremoloRate * t));
      if (echoLen > 0 && p.echoMix > 0) {
        const n = this._echo.length;
        const delayed = this._echo[(this._echoPos - echoLen + n) % n];
        this._echo[this._echoPos] = x + delayed * p.echoFeedback;
        this._echoPos = (this._echoPos + 1) % n;
        x = x * (1 - p.echoMix) + delayed * p.echoMix;
      }
      if (p.lowpassHz > 0) x = this._lp += lpA * (x - this._lp);
      if (p.highpassHz > 0) {
        const y = hpA * (this._hpOut + x - this._hpIn);
        this._hpIn = x;
        x = this._hpOut = y;
      }
      block[s] = x;
    }
  }
}
