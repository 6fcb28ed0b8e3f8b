/**
 * Media job benchmarks: CPU of one mix job (2 and 4 inputs, 640×360 and 1280×720 output), job start
 * → first RTMP frame read back from the CDN, and a layout change → visible in the RTMP output. The job is the
 * server's own GStreamer controller (JobProcess), fed by synthetic H264/opus RTP senders (gst-launch), pushing
 * to a loopback nginx-rtmp; frames are read back with ffmpeg.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { JobProcess, type PadLayout } from '../../packages/server/src/jobs/job-process.js';
import { RtmpCdn } from '../../tests/e2e/src/harness/rtmp-cdn.js';
import { readProcCpu } from './proc.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const COLOURS = ['0xffff0000', '0xff0000ff', '0xff00ff00', '0xffffff00'];

export interface MixCpuResult {
  inputs: number;
  size: string;
  cpuPercent: number;
  fps: number;
  startToStartedMs: number;
  startToFirstFrameMs: number;
}

export interface MediaJobsResult {
  cpu: MixCpuResult[];
  layoutToVisibleMs: number[];
}

/** A synthetic publisher: solid colour 640×480 15 fps H264 and a 440 Hz opus tone, as RTP to the job's ports. */
function sender(colour: string, videoPort: number, audioPort: number): ChildProcess {
  return spawn('gst-launch-1.0', ['-q',
    'videotestsrc', 'is-live=true', 'pattern=solid-color', `foreground-color=${colour}`, '!', 'video/x-raw,width=640,height=480,framerate=15/1', '!',
    'x264enc', 'tune=zerolatency', 'speed-preset=ultrafast', 'key-int-max=30', 'bitrate=600', '!', 'rtph264pay', 'pt=96', '!', 'udpsink', 'host=127.0.0.1', `port=${videoPort}`,
    'audiotestsrc', 'is-live=true', 'freq=440', '!', 'opusenc', '!', 'rtpopuspay', 'pt=111', '!', 'udpsink', 'host=127.0.0.1', `port=${audioPort}`,
  ], { stdio: 'ignore' });
}

function grid(n: number, width: number, height: number): PadLayout[] {
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const w = Math.floor(width / cols);
  const h = Math.floor(height / rows);
  return Array.from({ length: n }, (_, i) => ({ x: (i % cols) * w, y: Math.floor(i / cols) * h, w, h, z: 1, fill: 2, visible: true }));
}

/** Resolves when ffmpeg decodes the first frame of the stream. */
function firstFrame(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // ffmpeg's default stream analysis (up to 5 s) is part of this figure; a short probe missed the video stream.
    const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-i', url, '-frames:v', '1', '-f', 'null', '-'], { stdio: 'ignore' });
    const timer = setTimeout(() => { ffmpeg.kill('SIGKILL'); reject(new Error('no frame')); }, 20_000);
    ffmpeg.on('exit', (code) => { clearTimeout(timer); if (code === 0) resolve(); else reject(new Error(`ffmpeg ${code}`)); });
  });
}

type Rgb = [number, number, number];

export const isRed = ([r, g, b]: Rgb): boolean => r > 150 && g < 90 && b < 90;

/**
 * Reads an RTMP stream continuously with ffmpeg (32×18 RGB frames) and waits for the centre colour to pass
 * a test: `until` resolves at the first decoded frame that does (20 s bound).
 */
export function centreReader(url: string): { until(test: (rgb: Rgb) => boolean): Promise<void>; stop(): void } {
  const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-fflags', 'nobuffer', '-flags', 'low_delay', '-i', url, '-vf', 'scale=32:18', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let latest: Rgb | undefined;
  let waiter: ((rgb: Rgb) => void) | undefined;
  let pending = Buffer.alloc(0);
  const frameBytes = 32 * 18 * 3;
  ffmpeg.stdout!.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= frameBytes) {
      const frame = pending.subarray(0, frameBytes);
      pending = pending.subarray(frameBytes);
      const i = (9 * 32 + 16) * 3;
      latest = [frame[i], frame[i + 1], frame[i + 2]];
      waiter?.(latest);
    }
  });
  return {
    until: (test) => new Promise<void>((resolve, reject) => {
      if (latest && test(latest)) { resolve(); return; }
      const timer = setTimeout(() => reject(new Error('colour never showed')), 20_000);
      waiter = (rgb) => { if (test(rgb)) { clearTimeout(timer); waiter = undefined; resolve(); } };
    }),
    stop: () => ffmpeg.kill('SIGTERM'),
  };
}

async function runMix(cdn: RtmpCdn, inputs: number, width: number, height: number, windowSeconds: number): Promise<MixCpuResult & { layoutMs?: number[] }> {
  const name = `bench${inputs}x${width}`;
  const url = cdn.url(name);
  const t0 = performance.now();
  const job = new JobProcess({ kind: 'mix', width, height, fps: 15, videoBitrate: width >= 1280 ? 2000 : 800, gop: 1, audioBitrate: 64, audioSampleRate: 48000, audioChannels: 1, background: 0, outputs: [{ type: 'rtmp', url }] });
  const senders: ChildProcess[] = [];
  try {
    const cells = grid(inputs, width, height);
    for (let i = 0; i < inputs; i++) {
      const ports = await job.input(`in${i}`, cells[i]);
      senders.push(sender(COLOURS[i % COLOURS.length], ports.videoPort, ports.audioPort));
    }
    await job.started(20_000);
    const startToStartedMs = performance.now() - t0;
    await firstFrame(url);
    const startToFirstFrameMs = performance.now() - t0;
    // Let the inputs settle, then measure the job process's CPU over the window.
    await new Promise((r) => setTimeout(r, 3000));
    const pid = job.pid!;
    const c0 = readProcCpu(pid);
    await new Promise((r) => setTimeout(r, windowSeconds * 1000));
    const c1 = readProcCpu(pid);
    const cpuPercent = ((c1.cpuMs - c0.cpuMs) / (c1.wallMs - c0.wallMs)) * 100;
    const result: MixCpuResult & { layoutMs?: number[] } = { inputs, size: `${width}x${height}`, cpuPercent, fps: job.fps, startToStartedMs, startToFirstFrameMs };
    if (inputs === 2 && width === 640) result.layoutMs = await layoutDelays(job, url, width, height);
    return result;
  } finally {
    for (const s of senders) s.kill('SIGTERM');
    await job.stop();
  }
}

/** Moves input 0 (red) over the whole picture and back, timing each change until the output's centre shows it. */
async function layoutDelays(job: JobProcess, url: string, width: number, height: number): Promise<number[]> {
  const reader = centreReader(url);
  const delays: number[] = [];
  try {
    await reader.until(() => true); // the reader is decoding
    const cells = grid(2, width, height);
    for (let i = 0; i < 5; i++) {
      const full: PadLayout = { x: 0, y: 0, w: width, h: height, z: 5, fill: 2, visible: true };
      let t = performance.now();
      job.layout('in0', full);
      await reader.until(isRed);
      delays.push(performance.now() - t);
      t = performance.now();
      job.layout('in0', cells[0]);
      await reader.until((rgb) => !isRed(rgb));
      delays.push(performance.now() - t);
    }
  } finally {
    reader.stop();
  }
  return delays;
}

/** Runs the mix benchmarks: four configurations, one at a time. */
export async function runMediaJobs(options: { windowSeconds: number }): Promise<MediaJobsResult> {
  const cdn = await RtmpCdn.start();
  const cpu: MixCpuResult[] = [];
  let layoutToVisibleMs: number[] = [];
  try {
    for (const [inputs, width, height] of [[2, 640, 360], [4, 640, 360], [2, 1280, 720], [4, 1280, 720]] as const) {
      const r = await runMix(cdn, inputs, width, height, options.windowSeconds);
      progress(`mix job ${inputs} inputs ${r.size}: ${r.cpuPercent.toFixed(1)}% CPU, ${r.fps} fps, first RTMP frame after ${r.startToFirstFrameMs.toFixed(0)} ms`);
      if (r.layoutMs) layoutToVisibleMs = r.layoutMs;
      cpu.push({ inputs: r.inputs, size: r.size, cpuPercent: r.cpuPercent, fps: r.fps, startToStartedMs: r.startToStartedMs, startToFirstFrameMs: r.startToFirstFrameMs });
    }
  } finally {
    await cdn.close();
  }
  return { cpu, layoutToVisibleMs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};

export function mediaJobRows(r: MediaJobsResult): Row[] {
  const b = 'mix job (GStreamer)';
  return [
    ...r.cpu.map((c) => ({ benchmark: b, figure: c.cpuPercent.toFixed(1), unit: '% of 1 core', notes: `${c.inputs} inputs (640×480 H264 decoded each) → ${c.size} H264+AAC at ${c.fps} fps encoded, job process only` })),
    { benchmark: b, figure: median(r.cpu.map((c) => c.startToFirstFrameMs)).toFixed(0), unit: 'ms (median)', notes: `job start → first frame decoded from the RTMP CDN by ffmpeg, its stream analysis included (n=${r.cpu.length}; of which ${median(r.cpu.map((c) => c.startToStartedMs)).toFixed(0)} ms until the job reports RTMP connected and media flowing)` },
    { benchmark: b, figure: median(r.layoutToVisibleMs).toFixed(0), unit: 'ms (median)', notes: `layout change → visible in the RTMP output read back by ffmpeg (n=${r.layoutToVisibleMs.length}, max ${Math.max(...r.layoutToVisibleMs).toFixed(0)} ms): mixer latency + encode + nginx + decode` },
  ];
}
