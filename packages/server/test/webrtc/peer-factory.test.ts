import { RTCPeerConnection } from 'werift';
import { describe, expect, it } from 'vitest';
import { audioCodecs, headerExtensions, videoCodecs } from '../../src/webrtc/codecs.js';
import { PeerCensus } from '../../src/webrtc/peer-census.js';
import { closePeer, createPeer, keepCandidatesOn, localSdp } from '../../src/webrtc/peer-factory.js';

describe('keepCandidatesOn', () => {
  it('keeps only the candidates on the configured address, and every other line', () => {
    const sdp = [
      'v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=candidate:1 1 udp 2130706431 192.0.2.2 50000 typ host',
      'a=candidate:2 1 udp 2130706431 127.0.0.1 50001 typ host',
      'a=mid:0', '',
    ].join('\r\n');
    expect(keepCandidatesOn(sdp, '127.0.0.1')).toBe([
      'v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=candidate:2 1 udp 2130706431 127.0.0.1 50001 typ host', 'a=mid:0', '',
    ].join('\r\n'));
  });
});

describe('closePeer', () => {
  it('a link closed while its ICE checks still run is released (the data links a short visit left open)', async () => {
    const census = new PeerCensus();
    const net = { iceAddress: '127.0.0.1', census };
    // A client that goes away a few milliseconds after its offer was answered, as a visitor closing its tab does:
    // the server's checks are then in flight. Several delays, as the race depends on the moment.
    for (const delayMs of [2, 4, 5, 6, 8, 10]) {
      const client = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false, iceInterfaceAddresses: { udp4: '127.0.0.1' }, iceAdditionalHostAddresses: ['127.0.0.1'] });
      client.createDataChannel('data');
      await client.setLocalDescription(await client.createOffer());
      const server = createPeer(net, videoCodecs(), audioCodecs(), headerExtensions());
      await server.setRemoteDescription({ type: 'offer', sdp: client.localDescription!.sdp });
      await server.setLocalDescription(await server.createAnswer());
      await client.setRemoteDescription({ type: 'answer', sdp: localSdp(server, net) });
      await new Promise((resolve) => setTimeout(resolve, delayMs)); // the client's moment of going away (not a wait for a condition)
      await client.close();
      closePeer(server);
    }
    await expect.poll(() => census.peerConnections, { timeout: 8000, interval: 50 }).toBe(0);
    expect(census.transports).toBe(0);
  }, 20_000);

  it('a link closed before its client sent a check is released (an offer without candidates, as the SDK\'s: a visitor gone before its browser connected)', async () => {
    const census = new PeerCensus();
    const net = { iceAddress: '127.0.0.1', census };
    // The server learns the client's address only from its checks, and none comes: its ICE waits, then the link
    // is closed (the user left). werift then marked the closed transport 'failed', counted open for ever.
    for (const delayMs of [0, 5, 25, 50]) {
      const client = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false, iceInterfaceAddresses: { udp4: '127.0.0.1' }, iceAdditionalHostAddresses: ['127.0.0.1'] });
      client.createDataChannel('data');
      await client.setLocalDescription(await client.createOffer());
      const offer = client.localDescription!.sdp.split('\r\n').filter((line) => !/^a=(candidate|end-of-candidates)/.test(line)).join('\r\n');
      const server = createPeer(net, videoCodecs(), audioCodecs(), headerExtensions());
      await server.setRemoteDescription({ type: 'offer', sdp: offer });
      await server.setLocalDescription(await server.createAnswer());
      await new Promise((resolve) => setTimeout(resolve, delayMs)); // the moment the user leaves (not a wait for a condition)
      closePeer(server);
      await client.close();
    }
    await expect.poll(() => census.peerConnections, { timeout: 5000, interval: 50 }).toBe(0);
    expect(census.transports).toBe(0);
  }, 20_000);
});
