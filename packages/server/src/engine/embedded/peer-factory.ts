import { RTCPeerConnection, type RTCRtpCodecParameters } from 'werift';
import type { LinkState } from '../media-engine.js';

/** Network settings shared by every peer connection of the embedded engine. */
export interface PeerNetworkOptions {
  /** Only gather host candidates on this IPv4 address (e.g. '127.0.0.1' for tests). */
  iceAddress?: string;
  /** UDP port range for ICE. */
  icePortRange?: [number, number];
}

/** Creates a werift peer connection for the SFU: no STUN lookups (no outside traffic), IPv4, bundled. */
export function createPeer(net: PeerNetworkOptions, video: RTCRtpCodecParameters[], audio: RTCRtpCodecParameters[],
  headerExtensions: ReturnType<typeof import('./codecs.js').headerExtensions>): RTCPeerConnection {
  return new RTCPeerConnection({
    codecs: { audio, video },
    headerExtensions,
    iceServers: [],
    iceUseIpv6: false,
    bundlePolicy: 'max-bundle',
    ...(net.iceAddress ? { iceInterfaceAddresses: { udp4: net.iceAddress } } : {}),
    ...(net.icePortRange ? { icePortRange: net.icePortRange } : {}),
  });
}

/** Maps werift's connection state onto the engine's. */
export function linkState(state: string): LinkState {
  switch (state) {
    case 'connected': return 'connected';
    case 'failed': return 'failed';
    case 'closed': return 'closed';
    default: return 'connecting';
  }
}
