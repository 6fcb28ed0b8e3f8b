import { RTCPeerConnection, type RTCIceTransport, type RTCRtpCodecParameters } from 'werift';
import { audioCodecs, downlinkCodecs, downlinkHeaderExtensions, headerExtensions, videoCodecs } from './codecs.js';
import { PROCESS_PEERS, type PeerCensus } from './peer-census.js';
import './werift-input-guards.js'; // for every peer connection of the server (werift parses an RTP header before SRTP checks it)

/** Network settings shared by every peer connection of the embedded engine. */
export interface PeerNetworkOptions {
  /** Only gather host candidates on this IPv4 address (e.g. '127.0.0.1' for tests). */
  iceAddress?: string;
  /** UDP port range for ICE. */
  icePortRange?: [number, number];
  /** Public address advertised instead of the host candidates' own (1:1 NAT; CONCLAVE_ANNOUNCED_ADDRESS). */
  announcedAddress?: string;
  /** Where the peer connections made with these options are counted (besides PROCESS_PEERS). */
  census?: PeerCensus;
}

/** Creates a werift peer connection for the SFU: no STUN lookups (no outside traffic), IPv4, bundled; counted in PROCESS_PEERS and `net.census`. */
export function createPeer(net: PeerNetworkOptions, video: RTCRtpCodecParameters[], audio: RTCRtpCodecParameters[],
  extensions: ReturnType<typeof headerExtensions>): RTCPeerConnection {
  const pc = new RTCPeerConnection({
    codecs: { audio, video },
    headerExtensions: extensions,
    iceServers: [],
    iceUseIpv6: false,
    bundlePolicy: 'max-bundle',
    // werift never gathers loopback by itself, so a loopback iceAddress is added explicitly;
    // localSdp() then keeps only the candidates on that address.
    ...(net.iceAddress ? { iceInterfaceAddresses: { udp4: net.iceAddress }, iceAdditionalHostAddresses: [net.iceAddress] } : {}),
    ...(net.icePortRange ? { icePortRange: net.icePortRange } : {}),
  });
  PROCESS_PEERS.add(pc);
  net.census?.add(pc);
  return pc;
}

/** A peer connection the server sends a source's media on (a playback link, Janus's relay): its video codec offered first. */
export function createSendPeer(net: PeerNetworkOptions, videoMimeType?: string): RTCPeerConnection {
  return createPeer(net, videoCodecs(videoMimeType), audioCodecs(), headerExtensions());
}

/**
 * A subscriber's downlink of the embedded engine: as createSendPeer, with RED offered for audio (unless `red` is
 * false) and transport-wide sequence numbers and feedback (what its link carries, for the downlink allocator: issue 43).
 */
export function createDownlinkPeer(net: PeerNetworkOptions, videoMimeType?: string, red = true): RTCPeerConnection {
  const { audio, video } = downlinkCodecs(videoMimeType, red);
  return createPeer(net, video, audio, downlinkHeaderExtensions());
}

/**
 * Closes a werift peer connection for good. werift's ICE checks that are still running when the connection
 * closes (a client gone a few milliseconds after its offer was answered) complete afterwards: they mark the
 * closed transport connected again and restart its consent checks, so the connection and its timers stay
 * alive (and counted) for ever. Any such late state change closes the ICE connection again, and the
 * transport stays closed (keepClosed).
 */
export function closePeer(pc: RTCPeerConnection): void {
  for (const transport of pc.iceTransports) {
    const { connection } = transport;
    connection.stateChanged.subscribe((state) => {
      // Deferred: the transport's own listener must first have seen the late state, then sees 'closed'.
      if (state !== 'closed') queueMicrotask(() => { connection.close().catch(() => undefined); }); // closing anyway
    });
    keepClosed(transport);
  }
  pc.close().catch(() => undefined); // closing a connection that is failing or closed already: nothing is left to release
}

/**
 * Once closed, the transport's state stays 'closed'. werift's RTCIceTransport.start() marks its transport
 * 'failed' when its ICE connect() ends without a pair — which is also how it ends when the transport is closed
 * before any check arrived from the client (an offer without candidates, as the SDK's: the data link of a
 * visitor gone before its browser sent a check). Its sockets are closed, but it read 'failed' for ever, so the
 * census kept the peer connection as open (and in memory: the churn test's leaked data link, issue 30).
 */
function keepClosed(transport: RTCIceTransport): void {
  let state = transport.state;
  Object.defineProperty(transport, 'state', {
    configurable: true,
    enumerable: true,
    get: () => state,
    set: (next: RTCIceTransport['state']) => {
      if (state !== 'closed') state = next;
    },
  });
}

/**
 * The SDP to send: with an iceAddress configured, only candidates on that address are kept (the
 * sockets are bound there, so any other address would be unreachable).
 */
export function localSdp(pc: RTCPeerConnection, net: PeerNetworkOptions): string {
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error('no local description');
  const kept = net.iceAddress ? keepCandidatesOn(sdp, net.iceAddress) : sdp;
  return net.announcedAddress ? announceCandidates(kept, net.announcedAddress) : kept;
}

/**
 * Rewrites the address of IPv4 host candidates to the public `address` (1:1 NAT: the socket's port is the
 * same outside, only the address differs), as mediasoup's announcedIp and Janus's nat_1_1_mapping do.
 */
export function announceCandidates(sdp: string, address: string): string {
  return sdp.split('\r\n').map((line) => {
    if (!line.startsWith('a=candidate:')) return line;
    const parts = line.split(' ');
    if (parts[7] !== 'host' || !/^\d{1,3}(\.\d{1,3}){3}$/.test(parts[4])) return line;
    parts[4] = address;
    return parts.join(' ');
  }).join('\r\n');
}

/** Removes a=candidate lines whose connection address is not `address`. */
export function keepCandidatesOn(sdp: string, address: string): string {
  return sdp.split('\r\n').filter((line) => {
    if (!line.startsWith('a=candidate:')) return true;
    return line.split(' ')[4] === address;
  }).join('\r\n');
}

/** A link's state as the server reads it (the engine contract's, media-engine.ts, is this one). */
export type LinkState = 'connecting' | 'connected' | 'failed' | 'closed';

/** Maps werift's connection state onto a LinkState. */
export function linkState(state: string): LinkState {
  switch (state) {
    case 'connected': return 'connected';
    case 'failed': return 'failed';
    case 'closed': return 'closed';
    default: return 'connecting';
  }
}
