import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JanusClient } from '../../../src/engine/janus/janus-client.js';
import { JanusCrossRoom } from '../../../src/engine/janus/janus-cross-room.js';
import type { JanusPublisher } from '../../../src/engine/janus/janus-publisher.js';

/**
 * The key-frame repeats of a cross-room feed (issue 28): the schedule alone, with fake timers. What it is for —
 * a big→small switch across rooms that stayed big — is shown with real Chromium and Janus by
 * tests/e2e/src/cross-room.e2e.ts. The publisher is a stand-in that counts requests and never comes up (so
 * no Janus request is made).
 */
function sourcePublisher(): { publisher: JanusPublisher; requests: number[] } {
  const requests: number[] = [];
  const publisher = {
    closed: false,
    mids: {},
    whenUp: () => Promise.reject(new Error('this stand-in never comes up')),
    requestKeyframe: () => requests.push(Date.now()),
  } as unknown as JanusPublisher;
  return { publisher, requests };
}

function crossRoom(): JanusCrossRoom {
  return new JanusCrossRoom({
    ready: () => Promise.reject(new Error('no Janus in this test')) as Promise<JanusClient>,
    roomOfGroup: () => Promise.resolve(1),
    nextFeedId: () => 1,
    sourceWaitMs: 60_000,
    cleanupFailed: () => undefined,
  });
}

describe('Janus cross-room key-frame requests', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a key-frame request for a cross-room feed is repeated after the encoder\'s 300 ms throttle, restarted by a newer request, and stops with the share', async () => {
    vi.useFakeTimers();
    const rooms = crossRoom();
    const { publisher, requests } = sourcePublisher();
    rooms.share('anchor', 'room-b', publisher);
    const view = rooms.view('anchor', 'room-b')!;
    const start = Date.now();
    view.requestKeyframe();
    await vi.advanceTimersByTimeAsync(100);
    // A second request (a switch right after a resume): sent at once, and the repeats count from it.
    view.requestKeyframe();
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests.map((t) => t - start)).toEqual([0, 100, 500, 1300]);

    view.requestKeyframe();
    await rooms.unshare('anchor', 'room-b');
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests).toHaveLength(5); // the request itself, no repeats after the share ended
  });
});
