import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publishAndSend, subscriberPeer, waitFor } from '../../support/engine-peers.js';
import { realJanus } from '../../support/janus-media.js';

const iceUfrags = (sdp: string): string[] => [...new Set(sdp.match(/^a=ice-ufrag:\S+/gm) ?? [])];

describe.skipIf(!existsSync('/usr/bin/janus'))('Janus downlink (real Janus)', () => {
  const janus = realJanus();

  // A join subscribes to every user's audio at once. Both subscriptions once each made a Janus handle for the
  // same client: the second handle's offer reached the client's one peer connection as an ICE restart of a
  // link whose DTLS was up, and that handle never got a handshake (no media for that page, "DTLS taking too
  // much time" 20 s later).
  it('two subscriptions that arrive together share one Janus handle: every offer the client gets is of one ICE session', async () => {
    const { engine, cleanups } = janus;
    for (const id of ['pub-a', 'pub-b', 'early', 'sub']) engine.joinRoom(id, 'room-together');
    for (const id of ['pub-a', 'pub-b']) {
      const publisher = await publishAndSend(engine, id);
      cleanups.push(publisher.stop);
    }
    const wants = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };
    // Someone subscribed first: both sources are up, so the two subscriptions below run side by side.
    const early = subscriberPeer();
    cleanups.push(() => early.pc.close());
    for (const id of ['pub-a', 'pub-b']) await engine.subscribe('early', id, wants, early.negotiate);
    const sub = subscriberPeer();
    cleanups.push(() => sub.pc.close());
    const [a, b] = (await Promise.all([engine.subscribe('sub', 'pub-a', wants, sub.negotiate), engine.subscribe('sub', 'pub-b', wants, sub.negotiate)])).map((handle) => handle.mids);
    expect(new Set([a.audio, a.video, a.aux, b.audio, b.video, b.aux]).size).toBe(6);
    expect(engine.stats().downlinks).toBe(2);
    expect(new Set(sub.offers.flatMap(iceUfrags)).size).toBe(1);
    await waitFor(() => sub.packets.length > 40, 15_000, 'packets of the sources');
  }, 60_000);
});
