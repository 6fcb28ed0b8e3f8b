import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JanusClient } from '../../../src/engine/janus/janus-client.js';
import { JanusCrossRoom } from '../../../src/engine/janus/janus-cross-room.js';
import { JanusPublisher } from '../../../src/engine/janus/janus-publisher.js';

/**
 * The key-frame repeats of a Janus publisher: the schedule alone, with fake timers. What it is for — a switch
 * between the big and the small stream that kept the old size (issue 28 across rooms; the demo's small→big switch
 * in one room) — is shown with real Chromium and Janus by tests/e2e/src/cross-room.e2e.ts and remote-media.e2e.ts.
 * The client is a stand-in that answers the publisher's join and counts its `configure keyframe` requests.
 */
async function publisher(): Promise<{ publisher: JanusPublisher; requests: number[] }> {
  const requests: number[] = [];
  const client = {
    closed: false,
    attach: () => Promise.resolve(7),
    detach: () => undefined,
    message: (_handle: number, body: Record<string, unknown>) => {
      if (body.request === 'configure' && body.keyframe === true) requests.push(Date.now());
      return Promise.resolve({ data: { streams: [] }, jsep: { type: 'answer', sdp: 'v=0' } });
    },
  } as unknown as JanusClient;
  const { publisher: made } = await JanusPublisher.join(client, 1, 1, 'v=0');
  return { publisher: made, requests };
}

describe('Janus key-frame requests', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a key-frame request is repeated after the encoder\'s 300 ms throttle, restarted by a newer request, and stops with the publisher', async () => {
    vi.useFakeTimers();
    const { publisher: source, requests } = await publisher();
    const start = Date.now();
    source.requestKeyframe();
    await vi.advanceTimersByTimeAsync(100);
    // A second request (a switch right after a resume): sent at once, and the repeats count from it.
    source.requestKeyframe();
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests.map((t) => t - start)).toEqual([0, 100, 500, 1300]);

    source.requestKeyframe();
    source.close();
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests).toHaveLength(5); // the request itself, no repeats after the publisher closed
  });

  it('a cross-room feed\'s key-frame request is its current source publisher\'s (repeats included)', async () => {
    vi.useFakeTimers();
    const { publisher: source, requests } = await publisher();
    const rooms = new JanusCrossRoom({
      ready: () => Promise.reject(new Error('no Janus in this test')) as Promise<JanusClient>,
      roomOfGroup: () => Promise.resolve(1),
      nextFeedId: () => 1,
      sourceWaitMs: 60_000,
      cleanupFailed: () => undefined,
    });
    vi.spyOn(source, 'whenUp').mockRejectedValue(new Error('this stand-in never comes up'));
    rooms.share('anchor', 'room-b', source);
    const start = Date.now();
    rooms.view('anchor', 'room-b')!.requestKeyframe();
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests.map((t) => t - start)).toEqual([0, 400, 1200]);
  });
});
