/**
 * The media plane behind one interface. The signalling layer drives it with opaque
 * participant ids; the engine knows media (SDP, RTP), not rooms or the wire protocol.
 *
 * Uplink m-line order is fixed: 0 audio, 1 main (big) video, 2 small video, 3 auxiliary
 * (screen) video. Each subscriber has one downlink whatever the number of sources: a subscription
 * occupies a group of three m-lines on it (audio, main video, auxiliary video), reusing the group
 * of an ended subscription when there is one, else adding one through a server-offered
 * renegotiation (serialised per downlink). What flows in a group changes without renegotiation;
 * the main-video m-line carries the small video instead of the big one when the subscriber wants
 * only the small one (and the publisher sends it).
 */

/** Which of a source's streams a subscriber receives. */
export interface ForwardWants {
  audio: boolean;
  bigVideo: boolean;
  smallVideo: boolean;
  auxVideo: boolean;
}

/** Where one subscription's streams arrive on the subscriber's downlink. */
export interface DownlinkMids {
  audio: string;
  video: string;
  aux: string;
}

/**
 * Renegotiates a subscriber's downlink with its client: sends the server's offer, resolves with the
 * client's answer (rejects when the client does not answer in time).
 */
export type DownlinkNegotiator = (offerSdp: string) => Promise<string>;

/** Counters the engine exposes for metrics and benchmarks. */
export interface EngineStats {
  /** Publishers' peer connections. */
  uplinks: number;
  /** Subscribers' downlink peer connections (one per subscriber). */
  downlinks: number;
  /** Subscriptions (subscriber, source) carried on the downlinks. */
  subscriptions?: number;
  /** RTP packets forwarded to subscribers since start. */
  forwardedPackets: number;
  /** RTP payload bytes forwarded to subscribers since start. */
  forwardedBytes: number;
  /** RTP packets received from publishers since start, per uplink slot. */
  receivedPackets?: Record<SourceSlot, number>;
}

/** The streams of one publisher, in uplink m-line order. */
export type SourceSlot = 'audio' | 'video' | 'small' | 'aux';

/** Connection state of one peer connection, as the engine reports it. */
export type LinkState = 'connecting' | 'connected' | 'failed' | 'closed';

/** Payload types of the RTP a media job receives from forwardRtp: H264 video, opus audio. */
export const RTP_FORWARD_PAYLOAD_TYPE = Object.freeze({ video: 96, audio: 111 } as const);

/** Where a media job wants one source's RTP (loopback UDP ports; a stream without a port is not sent). */
export interface RtpForwardTargets {
  /** Which video: the main (big) camera stream or the auxiliary (screen) stream. */
  stream: 'main' | 'aux';
  videoPort?: number;
  audioPort?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** A running RTP feed to a media job. */
export interface RtpForward {
  /** Asks the publisher for a key frame (the job's decoder needs one to start). */
  requestKeyframe(): void;
  /** Stops sending; idempotent. */
  stop(): void;
}

export interface MediaEngine {
  /** Negotiates `participantId`'s uplink from the client's offer; resolves to the answer SDP. Replaces any earlier uplink. */
  publish(participantId: string, offerSdp: string): Promise<string>;
  /** Closes the participant's uplink; its subscribers keep their downlinks and stop receiving. */
  unpublish(participantId: string): void;
  /**
   * Carries `sourceId`'s media to `subscriberId` on the subscriber's downlink (created on first use).
   * When m-lines must be added, the engine calls `negotiate` with its offer (one negotiation at a time
   * per downlink). Resolves with the subscription's mids once they are usable: at once for reused
   * m-lines, once the offer adding them was handed to `negotiate` otherwise.
   */
  subscribe(subscriberId: string, sourceId: string, wants: ForwardWants, negotiate: DownlinkNegotiator): Promise<DownlinkMids>;
  /** Changes which streams flow for an existing subscription (no renegotiation). */
  updateSubscription(subscriberId: string, sourceId: string, wants: ForwardWants): void;
  /** Ends one subscription; its m-lines stay on the downlink for reuse. */
  unsubscribe(subscriberId: string, sourceId: string): void;
  /** Closes the subscriber's downlink and every subscription on it (the client builds a new one, e.g. after it failed). */
  resetDownlink(subscriberId: string): void;
  /**
   * Opens the participant's data link (one data channel for custom messages) from the client's offer;
   * resolves to the answer SDP. Replaces an earlier link. `onData` receives each binary message.
   */
  openDataLink(participantId: string, offerSdp: string, onData: (data: Uint8Array) => void): Promise<string>;
  /** Sends a binary message on the participant's data link; false when there is no open link. */
  sendData(participantId: string, data: Uint8Array): boolean;
  /** Closes every link of a participant (uplink, downlinks, data link), as publisher and as subscriber. */
  removeParticipant(participantId: string): void;
  /**
   * Puts a participant in a group (its room) at join: only members of one group subscribe to each other,
   * which lets an engine keep rooms apart (Janus: one VideoRoom room per group). Engines that need no
   * grouping ignore it.
   */
  placeParticipant?(participantId: string, groupId: string): void;
  /**
   * Feeds `participantId`'s RTP (its audio and its main or auxiliary video) to a media job's UDP ports, with
   * RTP_FORWARD_PAYLOAD_TYPE payload types and one SSRC per stream; requests a key frame at once. The embedded
   * engine keeps sequence numbers and timestamps continuous across republishes; Janus (rtp_forward) jumps
   * them on a republish, which the jobs' jitter buffers absorb. Works before the participant publishes:
   * packets flow from its next publish on. The feed ends with `stop()` or removeParticipant.
   * Optional: an engine without it cannot feed mixes, CDN relays or recordings (jobs then fail with a code).
   */
  forwardRtp?(participantId: string, targets: RtpForwardTargets): RtpForward;
  /** Current counters. */
  stats(): EngineStats;
  /** Closes everything. */
  close(): Promise<void>;
}
