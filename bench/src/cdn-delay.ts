/**
 * End-to-end delay of a mixed CDN stream: a page publishes a canvas track through the server, the
 * CDNStreaming plugin mixes it to a loopback nginx-rtmp, and ffmpeg reads the RTMP output back; each colour
 * change painted on the canvas is timed until the output's centre shows it. The figure is the whole path: canvas
 * capture, browser encode, SFU, RTP to the mix job, decode, compose, x264 encode, RTMP, nginx, ffmpeg decode.
 */
import type { BrowserContext } from 'playwright-core';
import { cdn, rect, useCdnPlugin } from '../../tests/e2e/src/harness/cdn-client.js';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join, type SigSource } from '../../tests/e2e/src/harness/join.js';
import { RtmpCdn } from '../../tests/e2e/src/harness/rtmp-cdn.js';
import { centreReader, isRed } from './media-jobs.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const W = 640, H = 360;

/** Paints the page's canvas in `colour` from now on. */
const paint = (page: Awaited<ReturnType<AppHost['open']>>, colour: string) =>
  page.evaluate((c) => { (window as unknown as { benchColour: string }).benchColour = c; }, colour);

/** Colour change on a published canvas → visible in the mixed RTMP output; `changes` timings in ms. */
export async function runCdnDelay(context: BrowserContext, app: AppHost, server: SigSource & { url: string }, changes = 10): Promise<number[]> {
  const rtmp = await RtmpCdn.start();
  const page = await app.open(context);
  const url = rtmp.url('delay');
  let live: ReturnType<typeof centreReader> | undefined;
  try {
    const joined = await join(page, server, 'canvas', { roomId: 1701 }, { publish: false });
    if (!joined.ok) throw new Error(`join failed: ${JSON.stringify(joined)}`);
    await page.evaluate(async ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d')!;
      const win = window as unknown as { benchColour: string; e2e: { client: { startLocalVideo(o: unknown): Promise<void> } } };
      win.benchColour = '#ff0000';
      // captureStream emits a frame per paint: repaint at 30 fps so the encoder always has a fresh frame.
      setInterval(() => { ctx.fillStyle = win.benchColour; ctx.fillRect(0, 0, w, h); }, 33);
      const track = canvas.captureStream(30).getVideoTracks()[0];
      await win.e2e.client.startLocalVideo({ option: { videoTrack: track, profile: '360p' } });
    }, [W, H] as const);
    await useCdnPlugin(page, server.url);
    const started = await cdn(page, 'startPlugin', {
      target: { publishMode: 'PublishMixStreamToCDN', url },
      encoding: { videoWidth: W, videoHeight: H, videoFramerate: 15, videoGOP: 1, videoBitrate: 800, audioBitrate: 64, audioChannels: 1 },
      mix: { backgroundColor: 0x000000, videoLayoutList: [rect('canvas', 0, 0, W, H, 1)], audioMixUserList: [{ userId: 'canvas' }] },
    });
    if (!started.ok) throw new Error(`startPlugin failed: ${JSON.stringify(started)}`);
    live = centreReader(url);
    await live.until(isRed);
    const isBlue = ([r, g, b]: [number, number, number]) => b > 150 && r < 90 && g < 90;
    const delays: number[] = [];
    for (let i = 0; i < changes; i++) {
      const toBlue = i % 2 === 0;
      const t = performance.now();
      await paint(page, toBlue ? '#0000ff' : '#ff0000');
      await live.until(toBlue ? isBlue : isRed);
      delays.push(performance.now() - t);
    }
    progress(`canvas colour → RTMP output: ${delays.map((d) => d.toFixed(0)).join(', ')} ms`);
    await cdn(page, 'stopPlugin', { target: { publishMode: 'PublishMixStreamToCDN' } });
    return delays;
  } finally {
    live?.stop();
    await page.close();
    await rtmp.close();
  }
}

export function cdnDelayRows(delays: number[]): Row[] {
  const sorted = [...delays].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return [{ benchmark: 'mix job (GStreamer)', figure: median.toFixed(0), unit: 'ms (median)', notes: `end to end: canvas colour change in a publishing page → visible in the mixed RTMP output read back by ffmpeg (n=${delays.length}, max ${sorted[sorted.length - 1].toFixed(0)} ms): browser encode, SFU, mix job, x264, nginx-rtmp, ffmpeg decode` }];
}
