import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { sendPackets, subscriberPeer, uplink, waitFor } from '../../support/engine-peers.js';
import { realJanus } from '../../support/janus-media.js';

const WANTS = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };

/**
 * Two publishes of one participant at once (a reconnection racing a link rebuild): the last one wins, as on the
 * embedded engine (its "uplink: two publishes at once" test), and the losing one must not take the winner's media
 * from subscribers, whether they subscribed before, or while the loser was still the current feed.
 */
describe.skipIf(!existsSync('/usr/bin/janus'))('Janus: two publishes at once (real Janus)', () => {
  const janus = realJanus();

  /** A publisher `pub-<id>` with two uplinks ready to publish, and a subscriber `sub-<id>`, in one room. */
  async function racingPublishes(id: string) {
    const { engine, cleanups } = janus;
    engine.joinRoom(`pub-${id}`, `room-concurrent-${id}`);
    engine.joinRoom(`sub-${id}`, `room-concurrent-${id}`);
    const [first, second] = await Promise.all([uplink('H264'), uplink('H264')]);
    cleanups.push(() => first.pc.close(), () => second.pc.close());
    const sub = subscriberPeer();
    cleanups.push(() => sub.pc.close());
    return { engine, cleanups, first, second, sub };
  }

  it('a subscriber of the first feed keeps receiving once the second replaced it and the first was closed', async () => {
    const { engine, cleanups, first, second, sub } = await racingPublishes('a');
    const [firstAnswer, secondAnswer] = await Promise.all([engine.publish('pub-a', first.offer), engine.publish('pub-a', second.offer)]);
    await first.pc.setRemoteDescription({ type: 'answer', sdp: firstAnswer.answerSdp });
    await second.pc.setRemoteDescription({ type: 'answer', sdp: secondAnswer.answerSdp });
    // Both links send video for a moment (the client has not yet dropped the loser).
    const stopFirst = sendPackets(first, { audio: false });
    const stopSecond = sendPackets(second, { audio: false });
    cleanups.push(async () => { stopFirst(); stopSecond(); });
    await engine.subscribe('sub-a', 'pub-a', WANTS, sub.negotiate);
    await waitFor(() => sub.byKind.video > 20, 15_000, 'video');
    // The client drops the losing link: what the subscriber gets from now on comes from the winner.
    stopFirst();
    await first.pc.close();
    const mark = sub.packets.length;
    await waitFor(() => sub.packets.length > mark + 100, 20_000, 'video from the winning feed after the losing one closed');
  }, 60_000);

  it('a subscription made while the losing publish was the current feed gets the winner\'s media', async () => {
    const { engine, cleanups, first, second, sub } = await racingPublishes('b');
    // The client abandons the first link as its answer arrives (a newer one replaced it).
    const firstDone = engine.publish('pub-b', first.offer).then(() => first.pc.close());
    const secondDone = engine.publish('pub-b', second.offer);
    await firstDone;
    const subscribed = engine.subscribe('sub-b', 'pub-b', WANTS, sub.negotiate);
    await second.pc.setRemoteDescription({ type: 'answer', sdp: (await secondDone).answerSdp });
    const stop = sendPackets(second, { audio: false });
    cleanups.push(async () => stop());
    await subscribed;
    await waitFor(() => sub.byKind.video > 50, 15_000, 'video of the winning feed');
  }, 60_000);
});
