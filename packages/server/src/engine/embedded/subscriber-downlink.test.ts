import { afterEach, describe, expect, it } from 'vitest';
import { RtpHeader, RtpPacket } from 'werift';
import { publishAndSend, subscriberPeer, uplink, waitFor } from '../../test-support/engine-peers.js';
import { EmbeddedEngine } from './embedded-engine.js';

const WANTS = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('subscriber downlink: a subscription ended while its m-lines were being added', () => {
  it('leaves its new group free for the next source, instead of carrying the gone source for ever', async () => {
    const engine = new EmbeddedEngine({ iceAddress: '127.0.0.1' });
    cleanups.push(() => engine.close());
    for (const id of ['steady', 'visitor', 'next', 'subscriber']) engine.joinRoom(id, 'room');
    for (const id of ['steady', 'visitor', 'next']) {
      const publisher = await publishAndSend(engine, id);
      cleanups.push(publisher.stop);
    }
    const peer = subscriberPeer();
    cleanups.push(() => peer.pc.close());
    const steady = engine.subscribe('subscriber', 'steady', WANTS, peer.negotiate);
    // The visitor's subscription needs new m-lines: it waits behind the first negotiation, and ends meanwhile.
    const visitor = engine.subscribe('subscriber', 'visitor', WANTS, peer.negotiate);
    await Promise.resolve();
    await engine.unsubscribe('subscriber', 'visitor');
    await Promise.all([steady, visitor]);
    expect(engine.stats().subscriptions).toBe(1);
    // The next source takes the free group: no new m-lines, no offer.
    const offers = peer.offers.length;
    await engine.subscribe('subscriber', 'next', WANTS, peer.negotiate);
    expect(peer.offers.length).toBe(offers);
    expect(engine.stats().subscriptions).toBe(2);
  }, 20_000);
});

describe('uplink: two publishes at once (a reconnection racing a link rebuild)', () => {
  it('the one that wins keeps its tracks: closing the other does not stop what subscribers get', async () => {
    const engine = new EmbeddedEngine({ iceAddress: '127.0.0.1' });
    cleanups.push(() => engine.close());
    for (const id of ['publisher', 'subscriber']) engine.joinRoom(id, 'room');
    const [first, second] = await Promise.all([uplink('H264'), uplink('H264')]);
    cleanups.push(() => first.pc.close(), () => second.pc.close());
    const settled: typeof first[] = [];
    await Promise.all([first, second].map(async (up) => {
      const answer = await engine.publish('publisher', up.offer);
      settled.push(up);
      await up.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    }));
    const winner = settled[1]; // the last negotiation to finish wins
    let seq = 0;
    const timer = setInterval(() => {
      seq++;
      void winner.video.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 1800, marker: true }), Buffer.from([0x65, 1, 2, 3])));
    }, 20);
    cleanups.push(async () => clearInterval(timer));
    const peer = subscriberPeer();
    cleanups.push(() => peer.pc.close());
    await engine.subscribe('subscriber', 'publisher', WANTS, peer.negotiate);
    await waitFor(() => peer.byKind.video > 5, 10_000, 'video from the winning uplink');
  }, 20_000);
});
