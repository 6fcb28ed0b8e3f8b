import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishAndSend, subscriberPeer, waitFor } from '../../support/engine-peers.js';
import { EngineError } from '../../../src/engine/media-engine.js';
import { JanusClient } from '../../../src/engine/janus/janus-client.js';
import { JanusDownlink } from '../../../src/engine/janus/janus-downlink.js';
import { JanusProcess } from '../../../src/engine/janus/janus-process.js';
import { JanusPublisher, VIDEOROOM } from '../../../src/engine/janus/janus-publisher.js';
import { JanusRooms } from '../../../src/engine/janus/janus-rooms.js';

/** Waits (bounded) until an asynchronous condition holds. */
async function waitForAsync(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!await condition()) {
    if (Date.now() > end) throw new Error(`${what}: not in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ALL = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };

describe.skipIf(!existsSync('/usr/bin/janus'))('Janus downlink under churn (real Janus)', () => {
  const logger = pino({ level: 'silent' });
  const cleanups: (() => unknown)[] = [];
  let process: JanusProcess;
  let client: JanusClient;
  let room: number;

  beforeAll(async () => {
    process = new JanusProcess({ iceAddress: '127.0.0.1', logger });
    const endpoint = await process.start();
    client = await JanusClient.connect(endpoint.url, endpoint.secret);
    const rooms = new JanusRooms((detail) => { throw new Error(detail); });
    rooms.place('anyone', 'churn');
    room = await rooms.roomOf(client, 'anyone');
  }, 30_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    client?.close();
    await process?.stop();
  });

  /** A publisher in the room, sending, once its feed is up. */
  async function feed(): Promise<JanusPublisher> {
    let joined: JanusPublisher | undefined;
    const sender = await publishAndSend({
      publish: async (_id, offer) => {
        const result = await JanusPublisher.join(client, room, Math.floor(Math.random() * 1e9), offer);
        joined = result.publisher;
        return { answerSdp: result.answer };
      },
    }, 'feed');
    cleanups.push(sender.stop);
    await joined!.whenUp(10_000);
    return joined!;
  }

  // The users who stay lost their downlink when someone left while they subscribed to him: Janus refused the
  // new streams ("No such feed") and the engine dropped the whole downlink, which the client then rebuilt.
  it('a source gone before its streams are added is refused (not-published) and the downlink with its other subscriptions stays', async () => {
    const stay = await feed();
    let failed: string | undefined;
    const downlink = new JanusDownlink(client, room, logger, (detail) => { failed = detail; });
    cleanups.push(() => downlink.close());
    const sub = subscriberPeer();
    cleanups.push(() => sub.pc.close());
    await downlink.subscribe('stay', stay, ALL, sub.negotiate);
    await waitFor(() => sub.byKind.video > 20, 15_000, 'video of the feed that stays');

    const gone = await feed();
    gone.close();
    // The detach is not waited for by close(): the feed is gone once the room no longer lists it.
    const lister = await client.attach(VIDEOROOM, () => undefined);
    cleanups.push(() => client.detach(lister));
    await waitForAsync(async () => {
      const { data } = await client.message(lister, { request: 'listparticipants', room });
      return !(data.participants as { id: number }[]).some((p) => p.id === gone.feedId);
    }, 10_000, 'the feed to leave the room');
    const error = await downlink.subscribe('gone', gone, ALL, sub.negotiate).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).reason).toBe('not-published');
    expect(failed).toBeUndefined();
    expect(sub.offers).toHaveLength(1);
    const video = sub.byKind.video;
    await waitFor(() => sub.byKind.video > video + 20, 10_000, 'video of the feed that stays, after the refusal');
    expect(downlink.sources).toBe(1);
  }, 60_000);
});
