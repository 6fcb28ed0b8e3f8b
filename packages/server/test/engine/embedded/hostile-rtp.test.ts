import { afterAll, describe, expect, it } from 'vitest';
import { publishAndSend, subscriberPeer, waitFor } from '../../support/engine-peers.js';
import { EmbeddedEngine } from '../../../src/engine/embedded/embedded-engine.js';

/**
 * The media fuzz's regression case (tests/fuzz/media-fuzz.ts; the parser's own cases are in rtp-header-guard.test.ts):
 * the datagram that blocked the node, sent bare (no SRTP, no authentication) to a connected uplink's port, through
 * the engine as it runs — the guard must be in place without the test loading it.
 */
describe('hostile RTP on a connected link', () => {
  const engine = new EmbeddedEngine({ iceAddress: '127.0.0.1' });
  const cleanups: (() => Promise<unknown>)[] = [() => engine.close()];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('38.beyond one unauthenticated datagram claiming a 65,535-word header extension does not block the node: media flows on', async () => {
    for (const id of ['publisher', 'subscriber']) engine.joinRoom(id, 'room');
    const publisher = await publishAndSend(engine, 'publisher');
    cleanups.push(publisher.stop);
    const peer = subscriberPeer();
    cleanups.push(() => peer.pc.close());
    await engine.subscribe('subscriber', 'publisher', { audio: true, bigVideo: true, smallVideo: false, auxVideo: false }, peer.negotiate);
    await waitFor(() => peer.byKind.video > 5, 10_000, 'video before the packet');

    // 40 bytes: long enough to hold an SRTP tag, so werift parses the header before it finds the tag wrong.
    const packet = Buffer.alloc(40);
    packet[0] = 0x90; // RTP version 2 with a header extension
    packet[1] = 96;
    packet.writeUInt16BE(0xbede, 12);
    packet.writeUInt16BE(0xffff, 14); // 262,140 bytes of extension in a 40-byte packet
    const connection = publisher.pc.dtlsTransports[0]!.iceTransport.connection;
    const sentAt = performance.now();
    await connection.send(packet);
    const before = peer.byKind.video;
    // werift spent ~10 minutes on it with the event loop blocked; now it is dropped as malformed.
    await waitFor(() => peer.byKind.video > before + 10, 5_000, 'video after the packet');
    expect(performance.now() - sentAt).toBeLessThan(5_000);
  }, 20_000);
});
