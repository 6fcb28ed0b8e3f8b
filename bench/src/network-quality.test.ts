import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { summarize, videoTotals } from '../../tests/e2e/src/harness/call-quality.js';
import { livekitToken } from './network-livekit.js';
import { LIVEKIT_KEY } from './load-servers.js';

/** Video rows as the page's sampler writes them: [ms, framesDecoded, width, height, bytes, lost, nacks]. */
const videoRows = (frameAt: (ms: number) => number, untilMs: number, width = (_ms: number) => 640) =>
  Array.from({ length: untilMs / 100 + 1 }, (_, i) => [i * 100, frameAt(i * 100), width(i * 100), 480, i * 10_000, 0, 0]);

describe('43 harness: the freeze counter and the audio figures of call-quality.ts', () => {
  it('counts an inter-frame gap over 500 ms as a freeze (count, total, longest), not a shorter one', () => {
    // 15 fps-ish: a frame every 100 ms, none from 2000 to 2800 ms (a 900 ms gap from the last frame at 1900), none from 4000 to 4400 (500 ms).
    const frames = (ms: number) => Math.floor(ms / 100) - (ms > 2000 ? Math.min(8, Math.floor((ms - 2000) / 100)) : 0) - (ms > 4000 ? Math.min(4, Math.floor((ms - 4000) / 100)) : 0);
    const q = summarize({ streams: { 'v': { kind: 'video', samples: videoRows(frames, 6000) } }, marks: {}, endMs: 6000 });
    const [v] = q.video;
    expect(v!.freezeCount).toBe(1);
    expect(v!.freezeMs).toBe(900);
    expect(v!.longestFreezeMs).toBe(900);
    expect(videoTotals(q).freezeShare).toBeCloseTo(900 / 6000, 3);
  });

  it('a stream that decodes nothing is frozen for the whole window; one whose counter restarts (a new SSRC on the m-line) keeps its frames', () => {
    const stalled = summarize({ streams: { 'v': { kind: 'video', samples: videoRows(() => 42, 3000) } }, marks: {}, endMs: 3000 });
    expect(stalled.video[0]!.freezeMs).toBe(3000);
    expect(stalled.video[0]!.fps).toBe(0);
    // 10 frames a second; the counter restarts at 1500 ms (big → small: the new SSRC's framesDecoded from 0), the size too.
    const switched = summarize({ streams: { 'v': { kind: 'video', samples: videoRows((ms) => (ms < 1500 ? ms / 100 : (ms - 1500) / 100), 3000, (ms) => (ms < 1500 ? 640 : 160)) } }, marks: {}, endMs: 3000 });
    expect(switched.video[0]!.frames).toBe(29);
    expect(switched.video[0]!.freezeCount).toBe(0);
    expect(switched.video[0]!.width).toBe(160);
    expect(switched.video[0]!.maxWidth).toBe(640);
  });

  it('recovery after a mark is the first frame from which frames flow 1 s with no gap over 500 ms', () => {
    // Frames every 100 ms, none from 1000 to 3000 ms, a lone frame at 3000 then none to 3700, then steady from 3700.
    const frames = (ms: number) => (ms <= 1000 ? ms / 100 : ms < 3000 ? 10 : ms < 3700 ? 11 : 11 + (ms - 3600) / 100);
    const q = summarize({ streams: { 'v': { kind: 'video', samples: videoRows(frames, 6000) } }, marks: { 'burst end': 2500 }, endMs: 6000 });
    expect(q.video[0]!.recoverMs['burst end']).toBe(1200);
  });

  it('audio: the concealed share over the window, and dropouts as runs of 100 ms windows more than half concealed', () => {
    // [ms, totalSamplesReceived, concealed, silentConcealed, bytes, lost, energy]: 4800 samples per 100 ms; 200–400 ms and 800 ms mostly concealed.
    const concealedIn = (i: number) => (i === 2 || i === 3 || i === 8 ? 4000 : 0);
    let concealed = 0;
    const samples = Array.from({ length: 11 }, (_, i) => {
      concealed += i > 0 ? concealedIn(i) : 0;
      return [i * 100, i * 4800, concealed, 0, i * 400, 0, 0];
    });
    const [a] = summarize({ streams: { 'a': { kind: 'audio', samples } }, marks: {}, endMs: 1000 }).audio;
    expect(a!.concealedRatio).toBeCloseTo(12_000 / 48_000, 5);
    expect(a!.dropouts).toBe(2);
    expect(a!.dropoutMs).toBe(300);
  });
});

describe('43 bench: LiveKit access tokens', () => {
  it('are HS256 JWTs over the dev key with the room grant', () => {
    const token = livekitToken('viewer', '43101', 60);
    const [header, claims, signature] = token.split('.');
    expect(createHmac('sha256', LIVEKIT_KEY.apiSecret).update(`${header}.${claims}`).digest('base64url')).toBe(signature);
    const body = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as { iss: string; sub: string; video: { room: string; roomJoin: boolean } };
    expect(body).toMatchObject({ iss: LIVEKIT_KEY.apiKey, sub: 'viewer', video: { room: '43101', roomJoin: true } });
  });
});
