/**
 * "WHEP first frame": a publisher is in a room; each iteration a fresh plain page (no SDK) POSTs a WHEP offer for
 * its stream and reports, in-page, the time from the POST to the answer and to the first decoded frame
 * (requestVideoFrameCallback on the <video> the track plays in). Once per engine, each with its own server.
 */
import type { BrowserContext } from 'playwright-core';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join } from '../../tests/e2e/src/harness/join.js';
import { startTestServer } from '../../tests/e2e/src/harness/server.js';
import { mediaToken, whepUrl } from '../../tests/e2e/src/whep-pages.js';
import { progress, summarize, type Summary } from './stats.js';
import type { Row } from './table.js';

export interface WhepFirstFrameResult {
  engine: 'embedded' | 'janus';
  /** POST → first decoded frame, ms. */
  firstFrame: Summary;
  /** POST → 201 answer, ms. */
  answered: Summary;
}

/** One playback in a fresh page: POST → answer and POST → first frame, in ms. */
async function playOnce(context: BrowserContext, origin: string, url: string, token: string): Promise<{ answered: number; firstFrame: number }> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/healthz`);
    return await page.evaluate(async ({ url, token }) => {
      const pc = new RTCPeerConnection();
      pc.addTransceiver('audio', { direction: 'recvonly' });
      pc.addTransceiver('video', { direction: 'recvonly' });
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      document.body.appendChild(video);
      const frame = new Promise<number>((resolve) => {
        pc.ontrack = (e) => {
          if (e.track.kind !== 'video') return;
          video.srcObject = new MediaStream([e.track]);
          video.requestVideoFrameCallback(() => resolve(performance.now()));
        };
      });
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.addEventListener('icegatheringstatechange', () => { if (pc.iceGatheringState === 'complete') resolve(); });
      });
      const posted = performance.now();
      const res = await fetch(url, { method: 'POST', body: pc.localDescription!.sdp, headers: { 'content-type': 'application/sdp', authorization: `Bearer ${token}` } });
      const answer = await res.text();
      if (res.status !== 201) throw new Error(`WHEP ${res.status}: ${answer}`);
      const answered = performance.now() - posted;
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      const firstFrame = await Promise.race([frame, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('no frame in 15 s')), 15_000))]) - posted;
      await fetch(new URL(res.headers.get('location')!, url), { method: 'DELETE' });
      pc.close();
      return { answered, firstFrame };
    }, { url, token });
  } finally {
    await page.close();
  }
}

/** Runs the measurement on each engine. */
export async function runWhepFirstFrame(browser: { context: BrowserContext }, { iterations = 10, engines = ['embedded', 'janus'] as ('embedded' | 'janus')[] } = {}): Promise<WhepFirstFrameResult[]> {
  const results: WhepFirstFrameResult[] = [];
  for (const engine of engines) {
    const server = await startTestServer({ engine });
    const app = await AppHost.start(server.url);
    const publisher = await app.open(browser.context);
    try {
      const roomId = 9301;
      const joined = await join(publisher, server, 'whep-source', { roomId });
      if (!joined.ok) throw new Error(`publisher could not join: ${JSON.stringify(joined)}`);
      const token = await mediaToken('bench-player', roomId, 'play');
      const samples: { answered: number; firstFrame: number }[] = [];
      for (let i = 1; i <= iterations; i++) {
        const sample = await playOnce(browser.context, server.url, whepUrl(server.url, roomId, 'whep-source'), token);
        samples.push(sample);
        progress(`whep first frame (${engine}) ${i}/${iterations}: answer ${sample.answered.toFixed(0)} ms, first frame ${sample.firstFrame.toFixed(0)} ms`);
      }
      results.push({ engine, firstFrame: summarize(samples.map((s) => s.firstFrame)), answered: summarize(samples.map((s) => s.answered)) });
    } finally {
      await publisher.close();
      await app.close();
      await server.close();
    }
  }
  return results;
}

/** Table rows. */
export function whepFirstFrameRows(results: readonly WhepFirstFrameResult[]): Row[] {
  const b = 'WHEP first frame';
  return results.flatMap((r) => [
    { benchmark: b, figure: r.firstFrame.median.toFixed(0), unit: 'ms (median)', notes: `${r.engine}: POST offer → first decoded frame (rVFC), n=${r.firstFrame.count}, fresh plain page each${r.engine === 'janus' ? ', through the werift relay' : ''}` },
    { benchmark: b, figure: r.firstFrame.p90.toFixed(0), unit: 'ms (p90)', notes: `${r.engine}; min ${r.firstFrame.min.toFixed(0)}, max ${r.firstFrame.max.toFixed(0)}` },
    { benchmark: b, figure: r.answered.median.toFixed(0), unit: 'ms (median)', notes: `${r.engine}: of which POST → 201 answer` },
  ]);
}
