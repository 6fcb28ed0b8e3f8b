/**
 * Software decoder benchmark: frames per second TRTCVideoDecoder's decode worker gets through at
 * 640×480 in real Chromium — the wasm software decoder (TinyH264) and WebCodecs — on a baseline-profile H264
 * stream the page first encodes with WebCodecs (a moving picture, a key frame every 60 frames). Frames go to
 * the worker as the core's encoded-frame tap would hand them, all at once, and the clock runs from the first
 * one sent to the last picture back.
 */
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const FRAMES = Number(process.env.BENCH_DECODER_FRAMES ?? 300);

/** In the page: encode FRAMES frames, then time the decode worker on them. */
function decodeRate(page: Page, assets: string, decoder: 'wasm' | 'webCodecs'): Promise<{ fps: number; pictures: number }> {
  return page.evaluate(async ({ assets, decoder, count }) => {
    const chunks: { data: ArrayBuffer; key: boolean; timestamp: number }[] = [];
    const encoder = new VideoEncoder({
      output: (chunk) => {
        const data = new ArrayBuffer(chunk.byteLength);
        chunk.copyTo(data);
        chunks.push({ data, key: chunk.type === 'key', timestamp: chunks.length * 3000 });
      },
      error: (error) => { throw error; },
    });
    encoder.configure({ codec: 'avc1.42e01e', width: 640, height: 480, bitrate: 1_000_000, framerate: 30, avc: { format: 'annexb' } } as VideoEncoderConfig);
    const canvas = new OffscreenCanvas(640, 480);
    const ctx = canvas.getContext('2d')!;
    for (let i = 0; i < count; i += 1) {
      ctx.fillStyle = `hsl(${(i * 7) % 360} 70% 50%)`;
      ctx.fillRect(0, 0, 640, 480);
      ctx.fillStyle = '#fff';
      ctx.fillRect((i * 5) % 560, 200, 80, 80);
      const frame = new VideoFrame(canvas, { timestamp: i * 33_333 });
      encoder.encode(frame, { keyFrame: i % 60 === 0 });
      frame.close();
    }
    await encoder.flush();
    const worker = new Worker(URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(`${assets}/video-decoder/decode-worker.js`)})`])));
    const tap = new MessageChannel();
    let pictures = 0;
    let last = 0;
    const ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = ({ data }) => {
        if (data.type === 'ready') resolve();
        else if (data.type === 'error') reject(new Error(data.message));
        else if (data.type === 'frame' || data.type === 'i420') {
          if (data.type === 'frame') data.frame.close();
          pictures += 1;
          last = performance.now();
        }
      };
    });
    worker.postMessage({ type: 'init', tap: tap.port2, decoder, codec: 'avc1.42e01e', wasmUrl: `${assets}/video-decoder/tinyh264.wasm`, floor: 0 }, [tap.port2]);
    await ready;
    const start = performance.now();
    for (const chunk of chunks) tap.port1.postMessage({ ...chunk, width: 640, height: 480, mimeType: 'video/H264' });
    const deadline = start + 120_000;
    let seen = -1;
    // Done when no new picture came for 1 s (the wasm decoder holds its last picture back).
    while (performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      if (pictures === seen) break;
      seen = pictures;
    }
    worker.terminate();
    return { fps: pictures / ((last - start) / 1000), pictures };
  }, { assets, decoder, count: FRAMES });
}

export async function runSoftwareDecoder(server: { url: string }): Promise<{ wasm: number; webCodecs: number; pictures: Record<string, number> }> {
  const app = await AppHost.start(server.url);
  const browser = await launchBrowser();
  try {
    const page = await app.open(browser.context);
    // tsx names the page function's inner functions with esbuild's __name helper, which the page lacks.
    await page.evaluate('window.__name = (f) => f');
    const assets = `${server.url}/sdk/assets`;
    const wasm = await decodeRate(page, assets, 'wasm');
    const webCodecs = await decodeRate(page, assets, 'webCodecs');
    progress(`software decoder: wasm ${wasm.fps.toFixed(0)} fps (${wasm.pictures} pictures), WebCodecs ${webCodecs.fps.toFixed(0)} fps (${webCodecs.pictures})`);
    return { wasm: wasm.fps, webCodecs: webCodecs.fps, pictures: { wasm: wasm.pictures, webCodecs: webCodecs.pictures } };
  } finally {
    await browser.close();
    await app.close();
  }
}

export function softwareDecoderRows(r: Awaited<ReturnType<typeof runSoftwareDecoder>>): Row[] {
  const b = 'software decoder (TRTCVideoDecoder)';
  return [
    { benchmark: b, figure: r.wasm.toFixed(0), unit: 'frames/s', notes: `wasm (TinyH264) in the decode worker, 640×480 baseline H264, ${FRAMES} frames (${r.pictures.wasm} pictures out), all queued at once` },
    { benchmark: b, figure: r.webCodecs.toFixed(0), unit: 'frames/s', notes: `WebCodecs VideoDecoder in the same worker, same stream (${r.pictures.webCodecs} pictures out)` },
  ];
}
