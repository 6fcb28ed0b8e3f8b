/** The rate the PCM player plays at (the plugin context's audio runs at 48 kHz). */
export const PLAY_RATE = 48000;

/** Samples as floats in [-1, 1): Int16 is scaled by 1/32768, floats are copied (the worklet takes the copy). */
export function toFloat(data: Float32Array | Int16Array): Float32Array {
  if (data instanceof Float32Array) return data.slice();
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i] / 32768;
  return out;
}

/** Interleaved frames of `channels` channels mixed down to mono (their mean); a trailing partial frame is dropped. */
export function downmix(data: Float32Array, channels: number): Float32Array {
  if (channels <= 1) return data;
  const frames = Math.floor(data.length / channels);
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += data[f * channels + c];
    out[f] = sum / channels;
  }
  return out;
}

/**
 * Linear-interpolation resampling to PLAY_RATE of a stream that arrives in chunks: the position between two
 * input samples and the last sample of the previous chunk carry over, so chunk edges leave no click.
 * A chunk at another rate than the previous one starts afresh.
 */
export class StreamResampler {
  private _rate = 0;
  /** Position of the next output sample, in input samples from the start of the next chunk (may be negative: between the previous chunk's last sample and this chunk's first). */
  private _position = 0;
  private _last = 0;

  reset(): void {
    this._rate = 0;
    this._position = 0;
    this._last = 0;
  }

  push(chunk: Float32Array, rate: number): Float32Array {
    if (rate !== this._rate) {
      this._rate = rate;
      this._position = 0;
      this._last = chunk[0] ?? 0;
    }
    if (rate === PLAY_RATE || chunk.length === 0) {
      if (chunk.length > 0) this._last = chunk[chunk.length - 1];
      return chunk;
    }
    const step = rate / PLAY_RATE;
    const out: number[] = [];
    let position = this._position;
    // Sample i of the chunk is at position i; position -1 is the previous chunk's last sample.
    while (position <= chunk.length - 1) {
      const index = Math.floor(position);
      const fraction = position - index;
      const a = index < 0 ? this._last : chunk[index];
      const b = index + 1 < chunk.length ? chunk[index + 1] : a;
      out.push(a + (b - a) * fraction);
      position += step;
    }
    this._position = position - chunk.length;
    this._last = chunk[chunk.length - 1];
    return Float32Array.from(out);
  }
}
