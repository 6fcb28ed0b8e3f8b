/**
 * Shared by the video-effects e2e files: fake-camera y4m files made with ffmpeg, loading effect plugins into
 * a page with script tags, and measurements of the frames a receiving page decodes (drawn from the remote
 * <video> onto a canvas).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

const DIR = join(tmpdir(), 'conclave-video-effects-y4m');

/** The fake camera sources the tests use (ffmpeg lavfi graphs, 2 s at 15 fps, looped by Chromium). */
export const SOURCES = {
  /** Solid blue-grey. */
  solid: 'color=c=0x3060a0',
  /** A green screen with a skin-toned "figure" (a box in the middle third). */
  greenScreen: 'color=c=0x00b140,drawbox=x=iw*0.375:y=ih*0.25:w=iw*0.25:h=ih*0.75:color=0xc08060:t=fill',
  /**
   * A fine texture (low-amplitude sinusoids) on a mid skin tone, what smoothing should flatten, drifting slowly
   * sideways. It moves because a still picture is not refined by the encoder once sent: after an effect stops,
   * the texture comes back at whatever quality the first frame of the change got (seen 0.5–0.75× of the
   * first sharpness for 20 s), where a moving one is encoded again each frame and settles.
   */
  textured: "color=c=0xb08070,geq=lum='p(X,Y)+22*sin(X*1.9+T*3)*sin(Y*1.7)':cb='p(X,Y)':cr='p(X,Y)'",
  /** Quadrants of four colours: camera input of the mixer (red, green, blue, yellow). */
  quadrants: 'color=c=0xd02020,drawbox=x=iw/2:y=0:w=iw/2:h=ih/2:color=0x20c020:t=fill,drawbox=x=0:y=ih/2:w=iw/2:h=ih/2:color=0x2020d0:t=fill,drawbox=x=iw/2:y=ih/2:w=iw/2:h=ih/2:color=0xd0d020:t=fill',
} as const;

/** Makes (once) a y4m file of a source at a size; returns its path for --use-file-for-fake-video-capture. */
export function y4m(source: keyof typeof SOURCES, width = 640, height = 480): string {
  mkdirSync(DIR, { recursive: true });
  const file = join(DIR, `${source}-${width}x${height}-${createHash('sha1').update(SOURCES[source]).digest('hex').slice(0, 8)}.y4m`);
  if (!existsSync(file)) {
    const [head, ...rest] = SOURCES[source].split(',');
    const graph = [`${head}:s=${width}x${height}:r=15:d=2`, ...rest, 'format=yuv420p'].join(',');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', graph, '-pix_fmt', 'yuv420p', file]);
  }
  return file;
}

/** Chromium flags for a fake camera reading a y4m file. */
export const fakeCamera = (file: string): string[] => [`--use-file-for-fake-video-capture=${file}`];

/** Loads an effect plugin file into the page with a script tag (as a plain page would) and registers it. */
export async function usePlugin(page: Page, serverUrl: string, path: string, global: string): Promise<void> {
  await page.addScriptTag({ url: `${serverUrl}/sdk/plugins/video-effect/${path}/${path}.iife.js` });
  await page.evaluate((name) => {
    const w = window as unknown as Record<string, unknown> & { e2e: { client: { use(p: unknown): void } } };
    w.e2e.client.use(w[name]);
  }, global);
}

/** A normalised rectangle of the frame: fractions of width and height. */
export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Figures of a region of one decoded frame. */
export interface RegionFigures {
  /** Mean colour 0–255. */
  r: number;
  g: number;
  b: number;
  /** Mean luma 0–255. */
  luma: number;
  /** r / (r + g + b). */
  redShare: number;
  /** Variance of the Laplacian of luma (sharpness, high-frequency energy). */
  laplacianVariance: number;
  width: number;
  height: number;
}

/** Measures regions of the current frame of the remote video of `userId` in the receiving page. */
export function measure(page: Page, userId: string, regions: Region[]): Promise<RegionFigures[]> {
  return page.evaluate(({ id, rects }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`);
    if (!video || video.videoWidth === 0) throw new Error('no decoded video yet');
    const width = video.videoWidth;
    const height = video.videoHeight;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0, width, height);
    return rects.map((rect) => {
      const x0 = Math.round(rect.x * width);
      const y0 = Math.round(rect.y * height);
      const w = Math.max(3, Math.round(rect.w * width));
      const h = Math.max(3, Math.round(rect.h * height));
      const data = ctx.getImageData(x0, y0, w, h).data;
      let r = 0, g = 0, b = 0;
      const luma = new Float32Array(w * h);
      for (let i = 0; i < w * h; i++) {
        r += data[i * 4];
        g += data[i * 4 + 1];
        b += data[i * 4 + 2];
        luma[i] = 0.299 * data[i * 4] + 0.587 * data[i * 4 + 1] + 0.114 * data[i * 4 + 2];
      }
      const n = w * h;
      let sum = 0, sumSq = 0, count = 0;
      for (let y = 1; y < h - 1; y++) {
        for (let x = 1; x < w - 1; x++) {
          const i = y * w + x;
          const lap = luma[i - 1] + luma[i + 1] + luma[i - w] + luma[i + w] - 4 * luma[i];
          sum += lap;
          sumSq += lap * lap;
          count += 1;
        }
      }
      const mean = sum / Math.max(1, count);
      return {
        r: r / n, g: g / n, b: b / n,
        luma: luma.reduce((a, v) => a + v, 0) / n,
        redShare: r / Math.max(1, r + g + b),
        laplacianVariance: sumSq / Math.max(1, count) - mean * mean,
        width, height,
      };
    });
  }, { id: userId, rects: regions });
}

/** Waits (bounded) until `check` holds for a measurement; returns the last one. Throws with it on time-out. */
export async function waitForFrames(page: Page, userId: string, regions: Region[], check: (figures: RegionFigures[]) => boolean,
  timeoutMs = 20_000): Promise<RegionFigures[]> {
  const deadline = Date.now() + timeoutMs;
  let last: RegionFigures[] | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await measure(page, userId, regions);
      if (check(last)) return last;
    } catch (error) {
      lastError = error;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`frames never matched: ${JSON.stringify(last ?? String(lastError))}`);
}

/** Frames per second the receiving page decodes for the remote main video, over `seconds`. */
export async function receivedFps(page: Page, userId: string, seconds: number): Promise<number> {
  return page.evaluate(async ({ id, window: ms }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`) as HTMLVideoElement & {
      requestVideoFrameCallback(cb: (now: number, meta: { presentedFrames: number }) => void): number;
    };
    if (!video) throw new Error('no remote video');
    const presented = () => new Promise<number>((resolve) => video.requestVideoFrameCallback((_now, meta) => resolve(meta.presentedFrames)));
    const first = await presented();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const last = await presented();
    return (last - first) / ((performance.now() - started) / 1000);
  }, { id: userId, window: seconds * 1000 });
}

/** A data URL of a solid square PNG made in the page (the watermark / background images). */
export function squarePng(page: Page, color: string, size: number): Promise<string> {
  return page.evaluate(({ c, s }) => {
    const canvas = document.createElement('canvas');
    canvas.width = s;
    canvas.height = s;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = c;
    ctx.fillRect(0, 0, s, s);
    return canvas.toDataURL('image/png');
  }, { c: color, s: size });
}

/** The publishing page's video encoder state (its largest outbound video), for failure messages: whether a
 * picture below its first quality is Chrome limiting the encoder for bandwidth or for CPU, and whether frames
 * still reach the encoder (its rate over one second, and the tracks the senders hold). */
export function senderVideoState(page: Page): Promise<string> {
  return page.evaluate(async () => {
    type Outbound = { type: string; kind?: string; frameWidth?: number; frameHeight?: number; targetBitrate?: number;
      framesEncoded?: number; qualityLimitationReason?: string; qualityLimitationDurations?: Record<string, number> };
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState !== 'closed');
    const outbound = async (pc: RTCPeerConnection) => [...(await pc.getStats()).values()]
      .filter((s: Outbound) => s.type === 'outbound-rtp' && s.kind === 'video' && !!s.frameWidth) as Outbound[];
    const before = await Promise.all(pcs.map(outbound));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const states: string[] = [];
    for (const [i, pc] of pcs.entries()) {
      for (const [j, s] of (await outbound(pc)).entries()) {
        const durations = Object.entries(s.qualityLimitationDurations ?? {}).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ');
        const rate = (s.framesEncoded ?? 0) - (before[i][j]?.framesEncoded ?? 0);
        states.push(`${s.frameWidth}×${s.frameHeight} target ${Math.round((s.targetBitrate ?? 0) / 1000)} kbit/s, encoding ${rate} fps, `
          + `limited by ${s.qualityLimitationReason} (${durations})`);
      }
      // A sender left on an ended or frameless track sends no new picture: the receiver keeps the last one.
      const tracks = pc.getSenders().map((sender) => sender.track).filter((t) => t?.kind === 'video')
        .map((t) => `${t!.label || 'generated'} ${t!.readyState}${t!.muted ? ' muted' : ''}`);
      if (tracks.length > 0) states.push(`sending tracks: ${tracks.join(', ')}`);
    }
    return states.join('; ') || 'no outbound video';
  });
}
