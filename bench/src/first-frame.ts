import type { BrowserContext } from 'playwright-core';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join, type SigSource } from '../../tests/e2e/src/harness/join.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import { firstFrame, installBenchHelpers, leave, sent, type FirstFrameMarks } from './page-helpers.js';
import { progress, summarize, waitFor, type Summary } from './stats.js';

export interface FirstFrameResult {
  roomId: number;
  iterations: number;
  /** ms from just before enterRoom() to the first rendered remote frame, per iteration. */
  samplesMs: number[];
  summary: Summary;
  /** Medians of the intermediate marks, ms since just before enterRoom(). */
  medianMarks: { enterRoom: number; videoAvailable: number; track: number; videoElement: number; startRemoteVideo: number; pcConnected: number; firstPacket: number; firstFrame: number };
  /** Key-frame traffic over all iterations: PLIs subscribers had sent by their first frame, PLIs the publisher got, key frames it encoded. */
  keyframes: { subscriberPlisMedian: number; publisherPlis: number; publisherKeyframes: number };
  /** Iterations in which remote-video-available fired before enterRoom() resolved. */
  availableBeforeEntered: number;
  marks: (FirstFrameMarks & { publisher: { plis: number; keyframes: number } })[];
  frameSize: string;
}

/**
 * "join → first remote frame": a publisher is in the room sending camera and microphone; each iteration
 * opens a fresh subscriber page, which joins without publishing, calls startRemoteVideo on its own
 * remote-video-available event and reports (in-page performance.now()) when the first frame is rendered.
 * With `preconnect`, each page has called callExperimentalAPI('preconnect') for the room before enterRoom().
 */
export async function runFirstFrame(context: BrowserContext, app: AppHost, server: SigSource,
  { iterations = 10, roomId = 9001, timeoutMs = 15_000, preconnect = false, label = '' }: { iterations?: number; roomId?: number; timeoutMs?: number; preconnect?: boolean; label?: string } = {}): Promise<FirstFrameResult> {
  label ||= preconnect ? 'first-frame (preconnect)' : 'first-frame';
  const publisherId = 'ff-publisher';
  const publisher = await app.open(context);
  try {
    await installBenchHelpers(publisher);
    const joined = await join(publisher, server, publisherId, { roomId });
    if (!joined.ok) throw new Error(`publisher could not join: ${JSON.stringify(joined)}`);
    // The publisher's uplink must be carrying video before the first subscriber arrives.
    await waitFor('publisher to encode video', () => sent(publisher), (s) => s.framesEncoded > 0 && s.audioBytes > 0, { timeoutMs: 20_000 });
    progress(`${label}: publisher ${publisherId} is sending in room ${roomId}`);

    const marks: FirstFrameResult['marks'] = [];
    for (let i = 1; i <= iterations; i++) {
      const page = await app.open(context);
      try {
        await installBenchHelpers(page);
        const userId = `ff-sub-${preconnect ? 'p' : ''}${i}`;
        const enter = { sdkAppId: TEST_APP.sdkAppId, userId, userSig: await server.sig(userId), roomId };
        const before = await sent(publisher);
        const measured = await firstFrame(page, enter, publisherId, timeoutMs, preconnect);
        const after = await sent(publisher);
        const p = { plis: after.plisReceived - before.plisReceived, keyframes: after.keyFramesEncoded - before.keyFramesEncoded };
        const m = { ...measured, publisher: p };
        marks.push(m);
        progress(`${label} ${i}/${iterations}: ${m.firstFrame.toFixed(0)} ms (enterRoom ${fmt(m.enterRoom)}, video-available ${fmt(m.videoAvailable)}, <video> ${fmt(m.videoElement)}, pc connected ${fmt(m.pcConnected)}, 1st packet ${fmt(m.firstPacket)}, subscriber sent ${m.plisSent ?? '-'} PLIs; publisher got ${p.plis} PLIs, encoded ${p.keyframes} key frames)`);
        progress(`  path (t0 ${new Date(m.t0Epoch ?? 0).toISOString()}): ${Object.entries(m.trace ?? {}).sort((a, b) => a[1] - b[1]).map(([step, at]) => `${step} ${at}`).join(', ')}`);
        await leave(page);
      } finally {
        await page.close();
      }
    }

    const samplesMs = marks.map((m) => m.firstFrame);
    const med = (pick: (m: FirstFrameMarks) => number | undefined) => {
      const values = marks.map(pick).filter((v): v is number => v !== undefined);
      return values.length > 0 ? summarize(values).median : NaN;
    };
    const last = marks[marks.length - 1];
    return {
      roomId,
      iterations,
      samplesMs,
      summary: summarize(samplesMs),
      medianMarks: {
        enterRoom: med((m) => m.enterRoom),
        videoAvailable: med((m) => m.videoAvailable),
        track: med((m) => m.track),
        videoElement: med((m) => m.videoElement),
        startRemoteVideo: med((m) => m.startRemoteVideo),
        pcConnected: med((m) => m.pcConnected),
        firstPacket: med((m) => m.firstPacket),
        firstFrame: med((m) => m.firstFrame),
      },
      keyframes: {
        subscriberPlisMedian: med((m) => m.plisSent),
        publisherPlis: marks.reduce((sum, m) => sum + m.publisher.plis, 0),
        publisherKeyframes: marks.reduce((sum, m) => sum + m.publisher.keyframes, 0),
      },
      availableBeforeEntered: marks.filter((m) => m.availableBeforeEntered).length,
      marks,
      frameSize: last ? `${last.width}x${last.height}` : '',
    };
  } finally {
    await leave(publisher).catch(() => undefined);
    await publisher.close();
  }
}

const fmt = (ms: number | undefined) => (ms === undefined ? '-' : `${ms.toFixed(0)}`);
