/**
 * The denoiser's AudioWorklet (built to assets/denoiser-wasm.js with RNNoise's wasm embedded, as the original
 * ships its denoiser-wasm.js): RNNoise (@jitsi/rnnoise-wasm) on 480-sample frames at 48 kHz, 10 ms latency.
 * Until the wasm is ready, and after 'bypass', audio passes through unchanged.
 */

/** Replaced at build time by the base64 of rnnoise.wasm. */
declare const RNNOISE_WASM_BASE64: string;

interface RnnoiseExports {
  c: WebAssembly.Memory;
  /** __wasm_call_ctors */ d(): void;
  /** rnnoise_create(model) */ f(model: number): number;
  /** malloc */ g(bytes: number): number;
  /** rnnoise_destroy */ h(state: number): void;
  /** free */ i(ptr: number): void;
  /** rnnoise_process_frame(state, out, in) → voice probability */ j(state: number, out: number, input: number): number;
}

interface WorkletScope {
  registerProcessor(name: string, ctor: unknown): void;
  AudioWorkletProcessor: new () => { readonly port: MessagePort };
}
const scope = globalThis as unknown as WorkletScope;

const FRAME = 480;
const SCALE = 32768;
/**
 * Far-field reduction (mode 1): frames RNNoise does not take for voice, or voiced frames quieter than this
 * (RMS, dBFS: a talker metres away rather than at the microphone), are brought down to FAR_FLOOR.
 */
const FAR_LEVEL_DB = -42;
const FAR_VOICE_PROBABILITY = 0.5;
const FAR_FLOOR = 0.1;

/** Base64 → bytes (AudioWorkletGlobalScope has no atob). */
function decode(base64: string): Uint8Array<ArrayBuffer> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lookup = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i += 1) lookup[alphabet.charCodeAt(i)] = i;
  const clean = base64.replace(/=+$/, '');
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < clean.length; i += 1) {
    value = (value << 6) | lookup[clean.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at] = (value >> bits) & 0xff;
      at += 1;
    }
  }
  return bytes;
}

/** Instantiates RNNoise with the two imports emscripten's glue would give it. */
const rnnoise: Promise<RnnoiseExports> = (async () => {
  // Known once instantiated; the imports only run after that.
  const wasm: { memory?: WebAssembly.Memory } = {};
  const imports = {
    a: {
      a: (requested: number) => {
        // emscripten_resize_heap: grow to at least the requested size.
        const memory = wasm.memory;
        if (!memory) return 0;
        const pages = Math.ceil((requested - memory.buffer.byteLength) / 65536);
        try {
          memory.grow(pages);
          return 1;
        } catch {
          return 0; // emscripten's answer for a heap that cannot grow: the module's allocation fails and it says so
        }
      },
      b: (dest: number, src: number, num: number) => {
        // emscripten_memcpy_big
        const heap = new Uint8Array(wasm.memory!.buffer);
        heap.copyWithin(dest, src, src + num);
      },
    },
  };
  const module = await WebAssembly.compile(decode(RNNOISE_WASM_BASE64));
  const instance = await WebAssembly.instantiate(module, imports);
  const exports = instance.exports as unknown as RnnoiseExports;
  wasm.memory = exports.c;
  exports.d();
  return exports;
})();

class DenoiseProcessor extends scope.AudioWorkletProcessor {
  private _wasm: RnnoiseExports | undefined;
  private _state = 0;
  private _inPtr = 0;
  private _outPtr = 0;
  private _bypass = false;
  private _closed = false;
  /** 0 normal, 1 far-field reduction (5.17's DenoiserMode). */
  private _mode = 0;
  private _gain = 1;
  /** Samples waiting for a full frame, and processed samples waiting to be output. */
  private readonly _pending = new Float32Array(FRAME);
  private _pendingLength = 0;
  private readonly _ready = new Float32Array(FRAME * 4);
  private _readyStart = 0;
  private _readyLength = 0;

  constructor() {
    super();
    rnnoise.then((wasm) => {
      if (this._closed) return;
      this._wasm = wasm;
      this._state = wasm.f(0);
      this._inPtr = wasm.g(FRAME * 4);
      this._outPtr = wasm.g(FRAME * 4);
      this.port.postMessage({ type: 'ready' });
    }, (error: unknown) => this.port.postMessage({ type: 'error', message: String(error) }));
    this.port.onmessage = (event: MessageEvent<{ type: string; value?: boolean | number }>) => {
      if (event.data.type === 'bypass') this._bypass = event.data.value === true;
      if (event.data.type === 'mode') this._mode = event.data.value === 1 ? 1 : 0;
      if (event.data.type === 'close') this._close();
    };
  }

  private _close(): void {
    this._closed = true;
    const wasm = this._wasm;
    if (!wasm) return;
    wasm.h(this._state);
    wasm.i(this._inPtr);
    wasm.i(this._outPtr);
    this._wasm = undefined;
  }

  private _frame(): void {
    const wasm = this._wasm!;
    const heap = new Float32Array(wasm.c.buffer);
    const inAt = this._inPtr >> 2;
    const outAt = this._outPtr >> 2;
    for (let i = 0; i < FRAME; i += 1) heap[inAt + i] = this._pending[i] * SCALE;
    const voice = wasm.j(this._state, this._outPtr, this._inPtr);
    const out = new Float32Array(wasm.c.buffer);
    // Far-field reduction: a gain per frame, ramped across the frame (no clicks), fast down and up.
    let target = 1;
    if (this._mode === 1) {
      let sum = 0;
      for (let i = 0; i < FRAME; i += 1) sum += (out[outAt + i] / SCALE) ** 2;
      const db = 10 * Math.log10(sum / FRAME + 1e-12);
      target = voice >= FAR_VOICE_PROBABILITY && db > FAR_LEVEL_DB ? 1 : FAR_FLOOR;
    }
    const from = this._gain;
    const to = from + (target - from) * 0.5;
    this._gain = to;
    for (let i = 0; i < FRAME; i += 1) {
      const gain = from + ((to - from) * i) / FRAME;
      this._ready[(this._readyStart + this._readyLength + i) % this._ready.length] = (out[outAt + i] / SCALE) * gain;
    }
    this._readyLength += FRAME;
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    if (this._closed) return false;
    const input = inputs[0]?.[0];
    const output = outputs[0];
    if (!output?.[0]) return true;
    const length = output[0].length;
    if (!input) {
      for (const channel of output) channel.fill(0);
      return true;
    }
    if (!this._wasm || this._bypass) {
      for (const channel of output) channel.set(input);
      return true;
    }
    for (let i = 0; i < input.length; i += 1) {
      this._pending[this._pendingLength] = input[i];
      this._pendingLength += 1;
      if (this._pendingLength === FRAME) {
        this._frame();
        this._pendingLength = 0;
      }
    }
    const first = output[0];
    for (let i = 0; i < length; i += 1) {
      if (this._readyLength > 0) {
        first[i] = this._ready[this._readyStart];
        this._readyStart = (this._readyStart + 1) % this._ready.length;
        this._readyLength -= 1;
      } else {
        first[i] = 0; // the first 10 ms, while the first frame fills
      }
    }
    for (let c = 1; c < output.length; c += 1) output[c].set(first);
    return true;
  }
}

scope.registerProcessor('conclave-rnnoise', DenoiseProcessor);
