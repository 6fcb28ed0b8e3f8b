/**
 * The decode worker (asset video-decoder/decode-worker.js): takes the tap's encoded frames, drops what the
 * downgrade level says, decodes the rest with WebCodecs or the wasm software decoder (TinyH264, h264bsd:
 * baseline profile, which is what Chromium's WebRTC H264 encoder sends) and hands decoded pictures to the
 * page. Levels are re-evaluated every 5 s from decode time against the source's frame interval.
 */
import { EVALUATE_EVERY_MS, FrameGate, nextLevel } from '../downgrade.js';
import type { DecodeCounters, FromWorker, ToWorker, TappedFrame } from './protocol.js';
import { createWasmDecoder, type WasmDecoder } from './wasm.js';

const scope = self as unknown as { postMessage(message: FromWorker, transfer?: Transferable[]): void; onmessage: ((event: MessageEvent<ToWorker>) => void) | null };
const post = (message: FromWorker, transfer: Transferable[] = []) => scope.postMessage(message, transfer);
/** Ask for a key frame this often at levels 2–3 (WebRTC sends none unasked), and while waiting for one. */
const KEY_REQUEST_MS = 1000;

let init: Extract<ToWorker, { type: 'init' }> | undefined;
let floor = 0;
let level = 0;
const gate = new FrameGate();
const counters: DecodeCounters = { received: 0, keyFrames: 0, decoded: 0, dropped: 0 };
let window = { decodeMs: 0, decodes: 0, firstTs: -1, lastTs: -1, frames: 0, at: performance.now() };
let lastKeyRequest = 0;
let sawKey = false;
let failed = false;
let webCodecs: VideoDecoder | undefined;
let wasm: WasmDecoder | undefined;

function fail(code: number, message: string): void {
  if (failed) return;
  failed = true;
  post({ type: 'error', code, message });
}

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* a slow decoder, simulated (type 'mock') */ }
}

function requestKey(tap: MessagePort, now: number): void {
  if (now - lastKeyRequest < KEY_REQUEST_MS) return;
  lastKeyRequest = now;
  tap.postMessage('key');
}

function evaluate(now: number): void {
  if (now - window.at < EVALUATE_EVERY_MS) return;
  const frameIntervalMs = window.frames > 1 ? (window.lastTs - window.firstTs) / 90 / (window.frames - 1) : 1000 / 30;
  const decodeMs = window.decodes > 0 ? window.decodeMs / window.decodes : undefined;
  const queue = webCodecs?.decodeQueueSize ?? 0;
  const prevLevel = level;
  level = nextLevel(level, { decodeMs, frameIntervalMs, queue }, floor);
  if (level !== prevLevel) post({ type: 'level', level, prevLevel, counters: { ...counters }, decodeMs, frameIntervalMs });
  window = { decodeMs: 0, decodes: 0, firstTs: -1, lastTs: -1, frames: 0, at: now };
}

function onFrame(frame: TappedFrame): void {
  const config = init;
  if (!config || failed) return;
  const now = performance.now();
  counters.received += 1;
  if (frame.key) counters.keyFrames += 1;
  if (window.firstTs < 0) window.firstTs = frame.timestamp;
  window.lastTs = frame.timestamp;
  window.frames += 1;
  evaluate(now);
  if (!sawKey && !frame.key) {
    requestKey(config.tap, now);
    counters.dropped += 1;
    return;
  }
  sawKey = true;
  if (level >= 2 && level <= 3) requestKey(config.tap, now);
  if (!gate.admit(frame.key, level)) {
    counters.dropped += 1;
    return;
  }
  if (config.fail === 'decode') {
    fail(config.decoder === 'wasm' ? 8 : 4, `${config.decoder} decode error (injected)`);
    return;
  }
  const started = performance.now();
  if (config.decodeDelayMs) busy(config.decodeDelayMs);
  try {
    if (wasm) wasm.decode(new Uint8Array(frame.data));
    else webCodecs?.decode(new EncodedVideoChunk({ type: frame.key ? 'key' : 'delta', timestamp: frame.timestamp, data: frame.data }));
  } catch (error) {
    fail(wasm ? 8 : 4, `${config.decoder} decode error: ${String(error)}`);
    return;
  }
  window.decodeMs += performance.now() - started;
  window.decodes += 1;
}

function decodedDraw(): boolean {
  counters.decoded += 1;
  return FrameGate.draw(level, counters.decoded);
}

async function start(config: Extract<ToWorker, { type: 'init' }>): Promise<void> {
  init = config;
  floor = config.floor;
  level = floor;
  if (config.decoder === 'wasm') {
    try {
      if (config.fail === 'create') throw new Error('injected');
      wasm = await createWasmDecoder(config.wasmUrl, (data, width, height) => {
        const buffer = data.buffer as ArrayBuffer; // TinyH264Decoder hands over a copy
        post({ type: 'i420', data: buffer, width, height, draw: decodedDraw() }, [buffer]);
      });
    } catch (error) {
      fail(6, `wasm decoder creation failed: ${String(error)}`);
      return;
    }
  } else {
    try {
      if (config.fail === 'create' || typeof VideoDecoder !== 'function') throw new Error(config.fail ? 'injected' : 'no VideoDecoder');
      webCodecs = new VideoDecoder({
        output: (frame) => post({ type: 'frame', frame, draw: decodedDraw() }, [frame as unknown as Transferable]),
        error: (error) => fail(4, `webCodecs decode error: ${error.message}`),
      });
    } catch (error) {
      fail(2, `webCodecs decoder creation failed: ${String(error)}`);
      return;
    }
    const support = config.fail === 'config' ? { supported: false } : await VideoDecoder.isConfigSupported({ codec: config.codec }).catch(() => ({ supported: false })); // a codec string it cannot parse is one it does not support
    if (!support.supported) {
      fail(3, `unsupported decoder config ${config.codec}`);
      return;
    }
    webCodecs.configure({ codec: config.codec, optimizeForLatency: true });
  }
  config.tap.onmessage = (event: MessageEvent<TappedFrame>) => onFrame(event.data);
  requestKey(config.tap, performance.now());
  post({ type: 'ready' });
}

scope.onmessage = ({ data }) => {
  if (data.type === 'init') void start(data);
  else floor = data.floor;
};
