/**
 * The PCM player's AudioWorklet processor ('conclave-pcm-player'), registered from a blob URL (a string: the
 * worklet scope has no module of ours). It plays mono 48 kHz chunks in order, from a list of chunks:
 *   main → worklet  {t:'push', pcm}  append (its buffer is transferred)
 *                   {t:'play'} / {t:'hold'}  play or output silence (held at creation)
 *                   {t:'drop'}  forget everything fed (counters back to 0)
 *                   {t:'keep', on}  keep played chunks (non-realtime: a rewind replays them) or not
 *                   {t:'rewind'}  play again from the first kept sample
 *                   {t:'end'}  stop processing for good
 *   worklet → main  {t:'pos', played}  about every 43 ms while playing
 *                   {t:'dry', played}  once each time what was fed has all been played
 */
export const PCM_PROCESSOR = 'conclave-pcm-player';

export const PCM_WORKLET_SOURCE = `
class ConclavePcmPlayer extends AudioWorkletProcessor {
  constructor() {
    super();
    this.chunks = []; this.at = 0; this.offset = 0; this.played = 0;
    this.playing = false; this.keep = false; this.ended = false; this.dry = true; this.sinceReport = 0;
    this.port.onmessage = ({ data }) => {
      switch (data.t) {
        case 'push': this.chunks.push(data.pcm); this.dry = false; break;
        case 'play': this.playing = true; break;
        case 'hold': this.playing = false; break;
        case 'drop': this.chunks = []; this.at = 0; this.offset = 0; this.played = 0; this.dry = true; break;
        case 'keep': this.keep = !!data.on; this.trim(); break;
        case 'rewind': this.at = 0; this.offset = 0; this.played = 0; this.dry = this.chunks.length === 0; break;
        case 'end': this.ended = true; break;
      }
    };
  }
  trim() {
    if (this.keep || this.at === 0) return;
    this.chunks.splice(0, this.at);
    this.at = 0;
  }
  process(inputs, outputs) {
    if (this.ended) return false;
    const out = outputs[0] && outputs[0][0];
    if (!out) return true;
    out.fill(0);
    if (!this.playing) return true;
    let written = 0;
    while (written < out.length && this.at < this.chunks.length) {
      const chunk = this.chunks[this.at];
      const take = Math.min(out.length - written, chunk.length - this.offset);
      out.set(chunk.subarray(this.offset, this.offset + take), written);
      written += take; this.offset += take;
      if (this.offset >= chunk.length) { this.at++; this.offset = 0; }
    }
    this.trim();
    this.played += written;
    this.sinceReport += written;
    if (written > 0 && this.sinceReport >= 2048) { this.sinceReport = 0; this.port.postMessage({ t: 'pos', played: this.played }); }
    if (written < out.length && !this.dry) { this.dry = true; this.port.postMessage({ t: 'dry', played: this.played }); }
    return true;
  }
}
registerProcessor('${PCM_PROCESSOR}', ConclavePcmPlayer);
`;

const registered = new WeakMap<BaseAudioContext, Promise<void>>();

/** Adds the processor to a context once (later calls share the load; a failed one is forgotten). */
export function addPcmWorklet(ctx: BaseAudioContext): Promise<void> {
  let loading = registered.get(ctx);
  if (!loading) {
    const url = URL.createObjectURL(new Blob([PCM_WORKLET_SOURCE], { type: 'text/javascript' }));
    loading = ctx.audioWorklet.addModule(url).finally(() => URL.revokeObjectURL(url));
    loading.catch(() => registered.delete(ctx)); // forgotten so the next call retries; the caller gets the rejection
    registered.set(ctx, loading);
  }
  return loading;
}
