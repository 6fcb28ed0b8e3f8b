/**
 * Shared by the plugins-*.e2e.ts files: test media generated with sox / ffmpeg / espeak-ng, a media server
 * (the app's own files, with CORS), and in-page probes that measure what a receiving page hears: the spectrum
 * and short-window levels of a remote user's audio track, through a Web Audio AnalyserNode.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_APP, type TestServer } from './harness/server.js';

/** Generated media files in a temp folder. */
export interface TestMedia {
  dir: string;
  path(name: string): string;
  dataUrl(name: string): string;
  remove(): void;
}

const MIME: Record<string, string> = { '.wav': 'audio/wav', '.mp3': 'audio/mpeg', '.ogg': 'audio/ogg', '.flac': 'audio/flac', '.html': 'text/html', '.js': 'text/javascript' };

/**
 * silence.wav (fake microphone), tone440.{wav,mp3,ogg,flac} and tone660.wav (2 s sines at -6 dBFS),
 * speech-noise.wav (espeak-ng speech, 3 s on / 3 s off, over constant white noise: the denoiser's fake mic).
 */
export function generateMedia(): TestMedia {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-plugin-media-'));
  const p = (name: string) => join(dir, name);
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' });
  run('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', p('silence.wav'), 'trim', '0', '10']);
  for (const freq of [440, 660]) run('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', p(`tone${freq}.wav`), 'synth', '2', 'sine', String(freq), 'vol', '0.5']);
  run('ffmpeg', ['-loglevel', 'error', '-y', '-i', p('tone440.wav'), '-c:a', 'libmp3lame', '-b:a', '128k', p('tone440.mp3')]);
  run('ffmpeg', ['-loglevel', 'error', '-y', '-i', p('tone440.wav'), '-c:a', 'libvorbis', p('tone440.ogg')]);
  run('sox', [p('tone440.wav'), p('tone440.flac')]);
  // Speech: two sentences, each padded to 3 s and followed by 3 s without speech; noise under all of it.
  run('espeak-ng', ['-w', p('speech-a.wav'), 'The quick brown fox jumps over the lazy dog.']);
  run('espeak-ng', ['-w', p('speech-b.wav'), 'Conclave removes the noise from this voice.']);
  for (const part of ['a', 'b']) run('sox', [p(`speech-${part}.wav`), '-r', '48000', '-c', '1', '-b', '16', p(`speech-${part}-48.wav`), 'trim', '0', '3', 'pad', '0', '3', 'norm', '-3']);
  run('sox', [p('speech-a-48.wav'), p('speech-b-48.wav'), p('speech.wav')]);
  run('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', p('noise.wav'), 'synth', '12', 'whitenoise', 'vol', '0.06']);
  run('sox', ['-m', p('speech.wav'), p('noise.wav'), '-b', '16', p('speech-noise.wav')]);
  return {
    dir,
    path: p,
    dataUrl: (name) => `data:${MIME[extname(name)] ?? 'application/octet-stream'};base64,${readFileSync(p(name)).toString('base64')}`,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Serves a folder over HTTP (an app's own files), with CORS so Web Audio may read them. */
export class MediaServer {
  readonly #http: Server;
  readonly url: string;
  /** Paths requested, in order. */
  readonly requests: string[];

  private constructor(http: Server, url: string, requests: string[]) {
    this.#http = http;
    this.url = url;
    this.requests = requests;
  }

  static async start(dir: string, extra: Record<string, { type: string; body: string }> = {}): Promise<MediaServer> {
    const requests: string[] = [];
    const http = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push(path);
      const page = extra[path];
      if (page) {
        res.writeHead(200, { 'content-type': page.type });
        res.end(page.body);
        return;
      }
      try {
        const body = readFileSync(join(dir, path.replace(/^\/+/, '').replace(/\.\./g, '')));
        res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream', 'access-control-allow-origin': '*', 'content-length': body.length });
        res.end(body);
      } catch {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return new MediaServer(http, `http://127.0.0.1:${(http.address() as AddressInfo).port}`, requests);
  }

  close(): Promise<void> {
    this.#http.closeAllConnections();
    return new Promise((resolve) => this.#http.close(() => resolve()));
  }
}

/** The page-side probe (a string so it can run in any page that has a TRTC client at window.e2e.client). */
export const PROBE_SCRIPT = `
window.probe = {
  analyser: null,
  /** Attaches an AnalyserNode to a remote user's audio track; false while there is none. */
  attach(userId) {
    const track = window.e2e.client.getAudioTrack(userId);
    if (!track) return false;
    const ctx = this.ctx || (this.ctx = new AudioContext());
    ctx.resume();
    const source = ctx.createMediaStreamSource(new MediaStream([track]));
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 8192;
    analyser.smoothingTimeConstant = 0;
    source.connect(analyser);
    this.source = source;
    this.analyser = analyser;
    return true;
  },
  /** Averages the power spectrum over durationMs: the peak (100-4000 Hz) and the level in dB around each frequency (±20 Hz). */
  async spectrum(durationMs, freqs) {
    const a = this.analyser;
    const bins = new Float32Array(a.frequencyBinCount);
    const power = new Float64Array(a.frequencyBinCount);
    const hz = this.ctx.sampleRate / a.fftSize;
    let n = 0;
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      a.getFloatFrequencyData(bins);
      for (let i = 0; i < bins.length; i++) power[i] += Math.pow(10, bins[i] / 10);
      n++;
      await new Promise((r) => setTimeout(r, 100));
    }
    const db = (i) => 10 * Math.log10(power[i] / n + 1e-20);
    let peak = Math.round(100 / hz);
    for (let i = peak; i < 4000 / hz; i++) if (power[i] > power[peak]) peak = i;
    const levels = {};
    for (const f of freqs) {
      let best = -Infinity;
      for (let i = Math.floor((f - 20) / hz); i <= Math.ceil((f + 20) / hz); i++) best = Math.max(best, db(i));
      levels[f] = best;
    }
    return { peakHz: peak * hz, peakDb: db(peak), levels };
  },
  /** RMS level in dBFS of consecutive ~43 ms windows over durationMs. */
  async levels(durationMs) {
    const a = this.analyser;
    const data = new Float32Array(2048);
    const out = [];
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      a.getFloatTimeDomainData(data);
      let sum = 0;
      for (let i = 0; i < data.length; i++) sum += data[i] * data[i];
      out.push(10 * Math.log10(sum / data.length + 1e-12));
      await new Promise((r) => setTimeout(r, 43));
    }
    return out;
  },
};
`;

export interface Spectrum {
  peakHz: number;
  peakDb: number;
  levels: Record<string, number>;
}

/** Installs the probe in the page and attaches it to a remote user's audio once it arrives. */
export async function listenTo(page: Page, userId: string): Promise<void> {
  await page.evaluate(PROBE_SCRIPT);
  await page.waitForFunction((id) => (window as unknown as { probe: { attach(u: string): boolean } }).probe.attach(id), userId, { timeout: 20_000, polling: 200 });
}

export const spectrum = (page: Page, durationMs: number, freqs: number[] = [440]): Promise<Spectrum> =>
  page.evaluate(([d, f]) => (window as unknown as { probe: { spectrum(d: number, f: number[]): Promise<Spectrum> } }).probe.spectrum(d as number, f as number[]), [durationMs, freqs] as const);

export const levels = (page: Page, durationMs: number): Promise<number[]> =>
  page.evaluate((d) => (window as unknown as { probe: { levels(d: number): Promise<number[]> } }).probe.levels(d), durationMs);

/** The p-th percentile (0–100) of a list. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))))];
}

/** Creates a client in a page of the e2e app (window.e2e), optionally starts the microphone, and enters a room. */
export async function enterWithAudio(page: Page, server: TestServer, userId: string, roomId: number, audio?: Record<string, unknown>): Promise<{ ok: boolean; message?: string }> {
  const userSig = await server.sig(userId);
  return page.evaluate(async ({ userId: id, userSig: sig, roomId: room, sdkAppId, audio: a }) => {
    type Client = { enterRoom(o: unknown): Promise<void>; startLocalAudio(o: unknown): Promise<void> };
    const w = window as unknown as { e2e: { create(o?: unknown): void; client: Client } };
    w.e2e.create();
    try {
      if (a) await w.e2e.client.startLocalAudio(a);
      await w.e2e.client.enterRoom({ sdkAppId, userId: id, userSig: sig, roomId: room });
      return { ok: true };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }, { userId, userSig, roomId, sdkAppId: TEST_APP.sdkAppId, audio });
}

/** The microphone without the browser's own processing (it would fight the measurements). */
export const RAW_MIC = { option: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } };
