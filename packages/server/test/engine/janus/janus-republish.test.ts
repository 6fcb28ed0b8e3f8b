import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publishAndSend, subscriberPeer, waitFor } from '../../support/engine-peers.js';
import { realJanus } from '../../support/janus-media.js';

describe.skipIf(!existsSync('/usr/bin/janus'))('Janus republish (real Janus)', () => {
  const janus = realJanus();

  // The relay switch's case: the client closes its old uplink and Janus sees that feed leave before the
  // new one is up. Janus then renegotiates the subscriber's streams when they are switched to the new feed
  // and forwards nothing on them until its offer is answered.
  it('a source whose old feed left before it published again reaches its subscriber again (the offer Janus makes on the switch is answered)', async () => {
    const { engine, cleanups } = janus;
    engine.joinRoom('pub', 'room-republish');
    engine.joinRoom('sub', 'room-republish');
    const first = await publishAndSend(engine, 'pub');
    cleanups.push(first.stop);
    const sub = subscriberPeer();
    cleanups.push(() => sub.pc.close());
    await engine.subscribe('sub', 'pub', { audio: true, bigVideo: true, smallVideo: false, auxVideo: false }, sub.negotiate);
    await waitFor(() => sub.packets.length > 20, 15_000, 'packets of the first feed');
    expect(sub.offers).toHaveLength(1);

    // Break before make: the old feed leaves first, then the source publishes on a new uplink.
    await first.stop();
    await engine.unpublish('pub');
    const second = await publishAndSend(engine, 'pub');
    cleanups.push(second.stop);
    const mark = Date.now();
    await waitFor(() => sub.packets.filter((at) => at > mark).length > 20, 20_000, 'packets of the new feed');
    expect(sub.offers).toHaveLength(2);
  }, 60_000);
});
