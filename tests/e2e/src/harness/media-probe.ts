import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A solid-colour fake camera (y4m) and a beeping tone fake microphone (wav) for one browser. */
export interface FakeMedia {
  video: string;
  audio: string;
}

/** Makes a solid-colour y4m (Chromium loops it as the camera) and a tone of `hz` beeping (so noise suppression keeps it). */
export async function makeFakeMedia(name: string, color: string, hz: number, size = '640x480'): Promise<FakeMedia> {
  const dir = mkdtempSync(join(tmpdir(), `conclave-fake-${name}-`));
  const video = join(dir, `${name}.y4m`);
  const audio = join(dir, `${name}.wav`);
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${color}:s=${size}:r=15`, '-t', '2', '-pix_fmt', 'yuv420p', '-y', video]);
  await run('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', audio, 'synth', '0.5', 'sine', String(hz), 'pad', '0', '0.2', 'repeat', '15']);
  return { video, audio };
}

/** Chromium flags that use the fake media files. */
export const fakeMediaArgs = (media: FakeMedia): string[] => [
  `--use-file-for-fake-video-capture=${media.video}`,
  `--use-file-for-fake-audio-capture=${media.audio}`,
];

export interface ProbedStream {
  codec_type: 'video' | 'audio';
  codec_name: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

/** ffprobe's view of a stream URL or file: streams and format duration. */
export async function probe(input: string, timeoutMs = 15_000): Promise<{ streams: ProbedStream[]; duration: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-rw_timeout', '10000000', '-show_streams', '-show_format', '-of', 'json', input], { timeout: timeoutMs });
  const parsed = JSON.parse(stdout) as { streams: ProbedStream[]; format?: { duration?: string } };
  return { streams: parsed.streams, duration: Number(parsed.format?.duration ?? NaN) };
}

/** One decoded frame (RGB24, scaled to `width`×`height`) of a stream or file, `skip` frames in. */
export function grabFrame(input: string, width: number, height: number, options: { skip?: number; at?: number } = {}): Promise<Buffer> {
  const args = ['-v', 'error', ...(options.at !== undefined ? ['-ss', String(options.at)] : []), '-i', input,
    '-vf', `select=gte(n\\,${options.skip ?? 0}),scale=${width}:${height}`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'];
  return collect('ffmpeg', args, width * height * 3, 20_000);
}

/** Every frame of a file at `fps` frames a second (RGB24, scaled to `width`×`height`), in one decoding pass. */
export async function grabFrames(input: string, width: number, height: number, fps: number, maxFrames = 600): Promise<Buffer[]> {
  const size = width * height * 3;
  const all = await collect('ffmpeg', ['-v', 'error', '-i', input, '-vf', `fps=${fps},scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], size * maxFrames, 30_000, size);
  return Array.from({ length: Math.floor(all.length / size) }, (_, i) => all.subarray(i * size, (i + 1) * size));
}

/** `seconds` of decoded audio (mono, 48 kHz, s16) of a stream or file. */
export async function grabAudio(input: string, seconds: number): Promise<Int16Array> {
  const bytes = Math.round(seconds * 48000) * 2;
  const buf = await collect('ffmpeg', ['-v', 'error', '-i', input, '-vn', '-ac', '1', '-ar', '48000', '-f', 's16le', '-t', String(seconds), '-'], bytes, seconds * 1000 + 20_000,
    // ffmpeg's -t may end a few samples short of the exact duration (an audio frame boundary): allow 1 %.
    Math.floor(bytes * 0.99));
  return new Int16Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 2));
}

/** Runs `cmd` and resolves with `bytes` of its output (at least `minBytes`), else rejects with its stderr. */
function collect(cmd: string, args: string[], bytes: number, timeoutMs: number, minBytes = bytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} timed out: ${stderr}`)); }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => { chunks.push(chunk); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('exit', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      if (all.length >= minBytes) resolve(all.subarray(0, Math.min(bytes, all.length - (all.length % 2))));
      else reject(new Error(`${cmd} gave ${all.length} of ${bytes} bytes: ${stderr.trim()}`));
    });
  });
}

/** The average RGB of a rectangle of a frame. */
export function colorAt(frame: Buffer, width: number, rect: { x: number; y: number; w: number; h: number }): [number, number, number] {
  let r = 0, g = 0, b = 0, n = 0;
  for (let y = rect.y; y < rect.y + rect.h; y++) {
    for (let x = rect.x; x < rect.x + rect.w; x++) {
      const i = (y * width + x) * 3;
      r += frame[i]; g += frame[i + 1]; b += frame[i + 2]; n++;
    }
  }
  return [Math.round(r / n), Math.round(g / n), Math.round(b / n)];
}

/** Names the colour of an RGB triple (red, green, blue, black, white, or other). */
export function colorName([r, g, b]: [number, number, number]): string {
  const hi = 150, lo = 90;
  if (r > hi && g < lo && b < lo) return 'red';
  if (g > hi && r < lo && b < lo) return 'green';
  if (b > hi && r < lo && g < lo) return 'blue';
  if (r < 40 && g < 40 && b < 40) return 'black';
  if (r > 200 && g > 200 && b > 200) return 'white';
  if (r > hi && g > hi && b < lo) return 'yellow';
  return `other(${r},${g},${b})`;
}

/** Energy of a frequency in PCM (Goertzel), normalised by length. */
export function toneEnergy(pcm: Int16Array, hz: number, rate = 48000): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / rate);
  let s1 = 0, s2 = 0;
  for (const sample of pcm) {
    const s0 = sample / 32768 + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / pcm.length;
}

/** True when `hz` stands well above a neighbouring band (the tone is present). */
export function hasTone(pcm: Int16Array, hz: number): boolean {
  const tone = toneEnergy(pcm, hz);
  const floor = Math.max(toneEnergy(pcm, hz * 1.37), toneEnergy(pcm, hz * 0.71), 1e-9);
  return tone > floor * 20;
}
