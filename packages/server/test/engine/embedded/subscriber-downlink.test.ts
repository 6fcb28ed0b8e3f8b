import { afterEach, describe, expect, it, vi } from 'vitest';
import { RtpHeader, RtpPacket, type RTCPeerConnection } from 'werift';
import { publishAndSend, subscriberPeer, uplink, waitFor } from '../../support/engine-peers.js';
import type { EngineEvent } from '../../../src/engine/media-engine.js';
import { EmbeddedEngine } from '../../../src/engine/embedded/embedded-engine.js';

/** Every server-side peer connection a subscriber's downlink got in this file, in order (to reach its ICE connection). */
const created = vi.hoisted(() => [] as unknown[]);
vi.mock('../../../src/webrtc/peer-factory.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/webrtc/peer-factory.js')>();
  return { ...actual, createDownlinkPeer: (...args: Parameters<typeof actual.createDownlinkPeer>) => {
    const pc = actual.createDownlinkPeer(...args);
    created.push(pc);
    return pc;
  } };
});

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
      const { answerSdp: answer } = await engine.publish('publisher', up.offer);
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

/**
 * A publisher sending, a subscriber receiving it on its downlink and sending receiver reports back; `lastRtcpAt`
 * reads when the server last had one. `expireConsent` does what werift does when 30 s of its consent checks went
 * unanswered (a host too busy to read the answers in time, or the subscriber gone).
 */
async function downlinkWithReports() {
  const engine = new EmbeddedEngine({ iceAddress: '127.0.0.1' });
  cleanups.push(() => engine.close());
  const failed: EngineEvent[] = [];
  engine.onEvent((event) => { if (event.type === 'downlink-failed') failed.push(event); });
  for (const id of ['publisher', 'subscriber']) engine.joinRoom(id, 'room');
  const publisher = await publishAndSend(engine, 'publisher');
  cleanups.push(publisher.stop);
  const peer = subscriberPeer();
  cleanups.push(() => peer.pc.close());
  await engine.subscribe('subscriber', 'publisher', WANTS, peer.negotiate);
  const transport = (created.at(-1) as RTCPeerConnection).dtlsTransports[0]!;
  let lastRtcpAt = 0;
  transport.onRtcp.subscribe(() => { lastRtcpAt = performance.now(); });
  await waitFor(() => peer.byKind.video > 5 && lastRtcpAt > 0, 10_000, 'video down and the subscriber\'s receiver reports up');
  const connection = transport.iceTransport.connection as unknown as { consentFresh: boolean; setState(state: string): void; state: string };
  const expireConsent = () => {
    connection.consentFresh = false;
    connection.setState('failed');
  };
  // werift's test hook: it drops an incoming packet when inboundPacketLoss / 100 < Math.random(), so a tiny value drops them all.
  const silence = () => {
    const config = transport.config as { debug?: { inboundPacketLoss?: number } };
    config.debug = { ...config.debug, inboundPacketLoss: 1e-9 };
  };
  return { engine, failed, peer, connection, expireConsent, silence, lastRtcpAt: () => lastRtcpAt };
}

describe('subscriber downlink: consent checks that fail', () => {
  it("while the subscriber's RTCP still comes: the downlink is kept (no downlink-failed), and media flows on", async () => {
    const { engine, failed, peer, connection, expireConsent } = await downlinkWithReports();
    expireConsent();
    await waitFor(() => connection.state === 'connected', 2_000, 'the link connected again');
    const before = peer.byKind.video;
    await waitFor(() => peer.byKind.video > before + 20, 5_000, 'video still coming');
    expect(failed).toEqual([]);
    expect(engine.stats().subscriptions).toBe(1);
  }, 20_000);

  it('with nothing from the subscriber for 3 s (its packets dropped at the server): the downlink is dropped and told (downlink-failed)', async () => {
    const { engine, failed, peer, expireConsent, silence, lastRtcpAt } = await downlinkWithReports();
    // Gone: its peer connection closed (no more ICE checks), and anything still in flight dropped.
    await peer.pc.close();
    silence();
    await waitFor(() => performance.now() - lastRtcpAt() > 3_200, 10_000, 'the subscriber silent for 3 s');
    expireConsent();
    await waitFor(() => failed.length === 1, 2_000, 'downlink-failed');
    expect(failed[0]).toMatchObject({ type: 'downlink-failed', subscriberId: 'subscriber' });
    expect(engine.stats().subscriptions).toBe(0);
  }, 20_000);
});
