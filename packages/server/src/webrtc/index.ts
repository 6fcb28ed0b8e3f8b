/**
 * The server's WebRTC toolkit (docs/architecture.md "The WebRTC toolkit"): werift set up and patched for the
 * server, and what the embedded engine, the data links, WHEP and the Janus engine's playback relay build their
 * links from. Importing it applies the werift patches (its send path's SRTP, the input guards): werift is imported
 * nowhere else in the server (layers.cjs), and this index is the toolkit's only door.
 */

// Peer connections: made, answered and closed the same way everywhere; counted per process and per census.
export { announceCandidates, closePeer, createDownlinkPeer, createPeer, createSendPeer, linkState, localSdp, type LinkState, type PeerNetworkOptions } from './peer-factory.js';
export { PeerCensus, PROCESS_PEERS } from './peer-census.js';
export { closePeerNotifying } from './dtls-close.js';
export { audioCodecs, downlinkCodecs, headerExtensions, uplinkCodecs, uplinkHeaderExtensions, videoCodecs } from './codecs.js';

// Guards: ICE consent while the browser's media still comes; hostile input refused before werift parses it.
export { guardConsentWhileBrowserSends, watchSendLink, type SendLinkWatch } from './consent-guard.js';
export { boundNackGaps, REFUSED_MEDIA_INPUTS } from './werift-input-guards.js';

// Forwarding: a source's fan-out, a link's senders on it, the send path, a client-offered playback link.
export { ForwardSource, type PacketSink, type PublisherSources } from './forward-source.js';
export { DownlinkGroup, type ForwardCounter } from './downlink-group.js';
export { chooseLayer, type Layer, type VideoCap } from './layers.js';
export { DownlinkFeedback, PACKET_OVERHEAD_BYTES, type DownlinkEstimate } from './downlink-feedback.js';
export { decodeRed, encodeRed, RedHistory, RED_DISTANCE, type RedBlock } from './red.js';
export { sendForwarded } from './rtp-send.js';
export { PlaybackLink } from './playback-link.js';
export { RtpFeed, type RtpFeedInit } from './rtp-feed.js';

/** The werift types the toolkit's functions take and give, for the engines' own code on them. */
export type { MediaStreamTrack, RTCDataChannel, RTCDtlsTransport, RTCPeerConnection, RTCRtpReceiver, RTCRtpSender, RTCRtpTransceiver, RtpPacket } from 'werift';
