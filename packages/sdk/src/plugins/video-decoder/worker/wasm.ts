/**
 * The wasm software decoder: TinyH264 (Apache-2.0; h264bsd compiled to wasm), its wasm served as an asset
 * (video-decoder/tinyh264.wasm) and fetched once. Frames from WebRTC are Annex B; h264bsd takes one NAL unit
 * per call, so each frame is split at its start codes.
 */
import TinyH264 from 'tinyh264/es/TinyH264.js';
import TinyH264Decoder from 'tinyh264/es/TinyH264Decoder.js';

export interface WasmDecoder {
  decode(frame: Uint8Array): void;
}

/** Splits an Annex B frame into its NAL units (start codes kept, as h264bsd's byte-stream mode expects). */
export function splitNals(frame: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 2 < frame.length; i += 1) {
    if (frame[i] === 0 && frame[i + 1] === 0 && frame[i + 2] === 1) {
      starts.push(i > 0 && frame[i - 1] === 0 ? i - 1 : i);
      i += 2;
    }
  }
  if (starts.length === 0) return [frame];
  return starts.map((start, index) => frame.subarray(start, starts[index + 1] ?? frame.length));
}

/** Loads the wasm and makes a decoder that calls `onPicture` with each I420 picture. */
export async function createWasmDecoder(wasmUrl: string, onPicture: (data: Uint8Array, width: number, height: number) => void): Promise<WasmDecoder> {
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`${wasmUrl}: HTTP ${response.status}`);
  const module = await TinyH264({ wasmBinary: await response.arrayBuffer() });
  const decoder = new TinyH264Decoder(module, onPicture);
  return {
    decode(frame) {
      for (const nal of splitNals(frame)) decoder.decode(nal);
    },
  };
}
