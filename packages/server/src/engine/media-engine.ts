/**
 * The media engine contract: the media plane behind one interface, which a new engine implements and
 * proves by passing the conformance suite (engine/conformance/) unchanged. docs/architecture.md
 * "The media-engine contract" describes it for readers of the code.
 *
 * The signalling layer drives the engine with opaque participant ids; the engine knows media (SDP, RTP)
 * and which participants share a room, nothing of the wire protocol, transports or rooms' rules.
 *
 * Rules every engine follows:
 * - Every operation resolves or rejects with an EngineError whose `reason` says why (never a bare
 *   Error, never a silent no-op where the caller asked for something the engine cannot do).
 * - A participant joins an engine room (`joinRoom`) before it publishes or subscribes; only members of
 *   one room subscribe to each other, unless a source is shared with another room (`shareSource`).
 * - Uplink m-line order is fixed (UPLINK_SLOTS of @conclave/protocol/media).
 * - Each subscriber has one downlink whatever the number of sources: a subscription occupies a group of
 *   three m-lines on it (audio, main video, auxiliary video), reusing the group of an ended subscription
 *   when there is one, else adding one through a server-offered renegotiation (serialised per downlink).
 *   What flows in a group changes without renegotiation; the main-video m-line carries the small video
 *   when the subscriber wants only the small one (and the publisher sends it).
 * - What happens without a call (a downlink failing, a feed coming up, the engine losing its state) is
 *   told through `onEvent`, so signalling can tell the client instead of the client guessing.
 * - What publish and subscribe make comes back as a handle (EngineHandle) owned by the participant's engine-side
 *   record: its leave, its room's end or what holds it closes it, and an operation that completes after its
 *   participant left resolves to a closed handle, so callers ask the handle, never the room, after an await.
 */

import type { DownlinkMids, SubscriptionWants, UplinkSlot } from '@conclave/protocol/media';
import type { RelayConnector, RelayCredential, RelayExportHandle, RelayImportHandle, RelayOffer } from './relay/relay-contract.js';

export type { DownlinkMids, SubscriptionWants } from '@conclave/protocol/media';
/** The node-to-node relay's part of the contract (exportSource, importSource), in a file of its own. */
export type { RelayAnswer, RelayConnector, RelayCredential, RelayExportHandle, RelayImportHandle, RelayOffer } from './relay/relay-contract.js';

/**
 * Renegotiates a subscriber's downlink with its client: sends the server's offer, resolves with the
 * client's answer (rejects when the client does not answer in time).
 */
export type DownlinkNegotiator = (offerSdp: string) => Promise<string>;

/** Why an engine operation failed. */
export type EngineRefusal =
  /** The participant has not joined an engine room (or a source is in another room). */
  | 'not-joined'
  /** The source did not publish within the engine's source wait. */
  | 'not-published'
  /** The subscriber has no subscription to that source. */
  | 'not-subscribed'
  /** SDP negotiation with the client or inside the engine failed. */
  | 'negotiation-failed'
  /** The engine refused a change it was asked for (e.g. Janus answered an error). */
  | 'refused'
  /** The engine's media server is not available (restarting, unreachable). */
  | 'unavailable'
  /** The engine was closed. */
  | 'closed';

/** The one error every engine operation rejects with. */
export class EngineError extends Error {
  constructor(readonly reason: EngineRefusal, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
  }

  /** `error` as an EngineError: itself, or wrapped with `reason`. */
  static from(error: unknown, reason: EngineRefusal): EngineError {
    if (error instanceof EngineError) return error;
    return new EngineError(reason, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** What happens in the engine without a call. */
export type EngineEvent =
  /** A subscriber's downlink failed (transport, negotiation, the media server hung it up). The engine has
   * dropped it with its subscriptions; the next subscribe makes a new one. */
  | { type: 'downlink-failed'; subscriberId: string; detail: string }
  /** A publisher's uplink carries media (its peer connection is up). */
  | { type: 'feed-up'; participantId: string }
  /** A publisher's uplink was lost: the client closed it (DTLS close) or it failed (ICE consent expired; Janus hung
   * it up). The engine keeps it (a client may publish again); a publisher that cannot, such as WHIP, is removed. */
  | { type: 'uplink-lost'; participantId: string; detail: string }
  /** The engine lost every link (its media server restarted): every client must negotiate again. */
  | { type: 'engine-restarted' }
  /** Releasing something failed where nobody waits for the result (a Janus room, an RTP forwarder, a
   * subscription being ended): it may leak on a long-running server, so it is logged and counted. */
  | { type: 'cleanup-failed'; operation: CleanupOperation; detail: string };

/** What an engine releases in the background ('handle-close': what an EngineHandle's close set off). */
export type CleanupOperation = 'unsubscribe' | 'room-destroy' | 'rtp-forward-stop' | 'handle-detach' | 'handle-close' | 'relay-release';

/** Listens to engine events. */
export type EngineListener = (event: EngineEvent) => void;

/**
 * Counters the engine exposes for metrics and benchmarks. A counter an engine cannot measure is
 * `undefined` ("unknown"), never a false zero.
 */
export interface EngineStats {
  /** Publishers' peer connections. */
  uplinks: number;
  /** Subscribers' downlink peer connections (one per subscriber). */
  downlinks: number;
  /** Subscriptions (subscriber, source) carried on the downlinks. */
  subscriptions: number;
  /** RTP packets forwarded to subscribers since start; undefined when unknown. */
  forwardedPackets: number | undefined;
  /** RTP payload bytes forwarded to subscribers since start; undefined when unknown. */
  forwardedBytes: number | undefined;
  /** RTP packets received from publishers since start, per uplink slot; undefined when unknown. */
  receivedPackets: Record<SourceSlot, number> | undefined;
  /** Peer connections the engine holds, counted until their resources are released (closing ones too); absent or undefined when unknown. */
  peerConnections?: number | undefined;
  /**
   * Handles the engine holds in its media stack: Janus plugin handles of its session (publishers, downlinks,
   * room requests in flight), werift ICE transports not closed (embedded); absent or undefined when unknown.
   */
  handles?: number | undefined;
  /**
   * Resident memory, in bytes, of a media server running as a process of its own (a spawned Janus); absent or
   * undefined when the engine runs inside the server's process (its memory is the server's) or it is unknown.
   */
  mediaServerMemoryBytes?: number | undefined;
  /** Node-to-node relay links this engine exports (exportSource); absent when it has no relay. */
  relayExports?: number | undefined;
  /** Sources this engine imports from other nodes (importSource); absent when it has no relay. */
  relayImports?: number | undefined;
}

/** A media server's own account of what it holds (e.g. Janus's admin API), to cross-check EngineStats. */
export interface MediaServerReport {
  /** Sessions open on the media server (Conclave holds one). */
  sessions: number;
  /** Plugin handles over those sessions. */
  handles: number;
  /** Handles whose PeerConnection is up; undefined when the media server would have to be asked too much to tell. */
  peerConnections: number | undefined;
}

/** The streams of one publisher, in uplink m-line order. */
export type SourceSlot = UplinkSlot;

/** What a publisher's uplink carries (MediaEngine.uplinkMedia). */
export type UplinkMedia = 'none' | 'idle' | 'flowing';

/** Connection state of one peer connection, as the engine reports it: the WebRTC toolkit's reading of a link. */
export type { LinkState } from '../webrtc/index.js';

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
  /** Stops sending; idempotent. A failure to stop is told as a `cleanup-failed` event. */
  stop(): void;
}

/**
 * Why an engine handle closed: its owner closed it (`closed`), or it went with what holds it — replaced by a later
 * one of the same participant (`replaced`), ended by an operation (`unpublished`, `unsubscribed`), its
 * participant's leave (`left`), its source's leave (`source-left`), the end of its room (`room-ended`), the
 * subscriber's downlink that carried it (`downlink-closed`: reset or failed), a cross-room share ended
 * (`unshared`), or the engine (`engine-restarted`, `engine-closed`).
 */
export type HandleCloseReason =
  | 'closed' | 'replaced' | 'unpublished' | 'unsubscribed' | 'left' | 'source-left' | 'room-ended'
  | 'downlink-closed' | 'unshared' | 'engine-restarted' | 'engine-closed'
  /** A node-to-node relay's link failed (ICE or DTLS), or the other side went without saying why. */
  | 'link-lost';

/**
 * What an engine operation made (an uplink, a subscription), owned by its participant's engine-side record: the
 * participant's leave, its room's end or whatever holds it closes it (a cascade, as mediasoup's Producer and Consumer
 * close with their transport), and an operation that completes after its participant left resolves to a handle
 * already closed, its resources released (docs/architecture.md "The media-engine contract").
 */
export interface EngineHandle {
  /** True once closed, whoever closed it; a closed handle never opens again. */
  readonly closed: boolean;
  /** Why it closed; undefined while open. */
  readonly closeReason: HandleCloseReason | undefined;
  /**
   * Closes it and releases what it holds in the engine (as unpublish or unsubscribe would); idempotent, never
   * rejects: a release that fails is told as a `cleanup-failed` event.
   */
  close(): Promise<void>;
  /** Calls `listener` once when it closes (at once when it is closed already); returns the removal. */
  onClose(listener: (reason: HandleCloseReason) => void): () => void;
}

/** A publisher's uplink (MediaEngine.publish). */
export interface UplinkHandle extends EngineHandle {
  readonly participantId: string;
  /** The engine's answer to the client's offer. */
  readonly answerSdp: string;
}

/** One subscription on a subscriber's downlink (MediaEngine.subscribe). */
export interface SubscriptionHandle extends EngineHandle {
  readonly subscriberId: string;
  readonly sourceId: string;
  /** Its m-lines on the downlink. */
  readonly mids: DownlinkMids;
}

/** How a subscription forwards (MediaEngine.subscribe). */
export interface SubscribeOptions {
  /** End-to-end encryption on either side (the source's payloads, the subscriber's decrypting receiver): no RED. */
  opaque?: boolean;
}

/** How long a subscription waits for its source's uplink to come up, unless an engine is told otherwise. */
export const DEFAULT_SOURCE_WAIT_MS = 10_000;

export interface MediaEngine {
  /**
   * Puts a participant in an engine room (its Conclave room) at join. Required before publish or
   * subscribe; only members of one room subscribe to each other (Janus: one VideoRoom room per room).
   * Idempotent for the same room.
   */
  joinRoom(participantId: string, roomId: string): void;
  /**
   * Negotiates `participantId`'s uplink from the client's offer; resolves to its handle, carrying the answer SDP.
   * Replaces any earlier uplink (whose handle closes 'replaced'). Rejects 'not-joined' before joinRoom,
   * 'negotiation-failed' on a bad offer, 'unavailable' when the media server is down. Emits `feed-up` once the
   * uplink carries media. A publish that completes after its participant left resolves to a handle closed 'left',
   * one overtaken by an unpublish (called after it started) to a handle closed 'unpublished': nothing of it stays.
   */
  publish(participantId: string, offerSdp: string): Promise<UplinkHandle>;
  /**
   * Closes the participant's uplink (its handle closes 'unpublished'), and any publish of it still negotiating;
   * its subscribers keep their downlinks and stop receiving. Resolves when there was none.
   */
  unpublish(participantId: string): Promise<void>;
  /**
   * Carries `sourceId`'s media to `subscriberId` on the subscriber's downlink (created on first use).
   * A source that has not published yet is waited for (the engine's source wait, DEFAULT_SOURCE_WAIT_MS),
   * then the call rejects 'not-published'. When m-lines must be added, the engine calls `negotiate` with
   * its offer (one negotiation at a time per downlink). Resolves with the subscription's handle (its mids) once
   * they are usable: at once for reused m-lines, once the offer adding them was handed to `negotiate` otherwise.
   * Rejects 'not-joined' when either side has not joined the same room. A client answer that fails (after
   * the mids resolved, or before: then the call rejects 'negotiation-failed') drops the whole downlink and
   * emits `downlink-failed`; the next subscribe makes a new one. The handle closes with the subscriber's leave
   * ('left'), the source's ('source-left'), the downlink ('downlink-closed'), unsubscribe ('unsubscribed') or a
   * later subscribe to the same source ('replaced', which carries it on); a subscription that completes after
   * either side left resolves to a closed handle. `options.opaque`: the subscriber transforms what it receives, or the
   * source's payloads are end-to-end encrypted (CustomEncryption), so the engine forwards payloads as they are — no
   * RED around audio (the keyed pages heard silence with it), on a downlink made for it no RED offered at all.
   */
  subscribe(subscriberId: string, sourceId: string, wants: SubscriptionWants, negotiate: DownlinkNegotiator, options?: SubscribeOptions): Promise<SubscriptionHandle>;
  /**
   * Changes which streams flow for an existing subscription (no renegotiation). Rejects 'not-subscribed'
   * when there is no such subscription, 'refused' when the media server refused the change.
   */
  updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void>;
  /** Ends one subscription; its m-lines stay on the downlink for reuse. Resolves when there was none. */
  unsubscribe(subscriberId: string, sourceId: string): Promise<void>;
  /** Closes the subscriber's downlink and every subscription on it (the client builds a new one). Resolves when there was none. */
  resetDownlink(subscriberId: string): Promise<void>;
  /**
   * Closes every link of a participant (uplink, downlink), as publisher and as subscriber, and leaves its room: its
   * handles close 'left', its subscribers' handles to it 'source-left'. Idempotent.
   */
  removeParticipant(participantId: string): Promise<void>;
  /**
   * The room ended (dismissed): removes every participant of engine room `roomId` (their handles close
   * 'room-ended') and ends the shares of other rooms' sources with it. Resolves when there was none.
   */
  endRoom(roomId: string): Promise<void>;
  /**
   * Feeds `participantId`'s RTP (its audio and its main or auxiliary video) to a media job's UDP ports, with
   * RTP_FORWARD_PAYLOAD_TYPE payload types and one SSRC per stream; requests a key frame at once. The embedded
   * engine keeps sequence numbers and timestamps continuous across republishes; Janus (rtp_forward) jumps
   * them on a republish, which the jobs' jitter buffers absorb. Works before the participant publishes:
   * packets flow from its next publish on. The feed ends with `stop()` or removeParticipant.
   * Optional: an engine without it cannot feed mixes, CDN relays or recordings (jobs then fail with a code).
   */
  forwardRtp?(participantId: string, targets: RtpForwardTargets): RtpForward;
  /**
   * Cross-room link (docs/architecture.md "Cross-room links"): lets the members of engine room `roomId`
   * subscribe to `sourceId`, a participant of another room, exactly as to one of their own; its media is
   * forwarded, never re-encoded. Holds across the source's republishes (and before its first publish).
   * Rejects 'not-joined' when the source has not joined a room. Idempotent. Optional: an engine without it
   * cannot connect rooms (signalling refuses cross-room calls with a code).
   */
  shareSource?(sourceId: string, roomId: string): Promise<void>;
  /**
   * What the participant's uplink carries now: 'none' (no uplink: it never published, or unpublished), 'idle' (an
   * uplink is negotiated but no RTP came on it yet) or 'flowing' (RTP came on it). Signalling asks before it lets
   * a publisher's media into another room (cross-room links): publish flags are the client's word, this is the
   * engine's. Optional: an engine without it cannot connect rooms.
   */
  uplinkMedia?(participantId: string): UplinkMedia;
  /**
   * Ends a shareSource: every subscription of `roomId`'s members to `sourceId` ends (their m-lines stay for
   * reuse). Resolves when there was none; removeParticipant of the source ends all of its shares.
   */
  unshareSource?(sourceId: string, roomId: string): Promise<void>;
  /**
   * Node-to-node relay, exporting side: answers an importing engine's offer (importSource's, carried by the cluster
   * layer) with a link carrying every stream of `offer.sourceId` — audio, big, small and auxiliary video — whatever
   * the number of subscribers on the importing node; key-frame requests and NACKs from there are answered as a
   * subscriber's (PLIs relayed to the publisher, NACKs from the retransmission cache). Media is DTLS-SRTP.
   * Rejects 'refused' when the credential is not valid for that source (forged, expired, or the engine has no
   * cluster secret), 'not-joined' when the source has not joined a room, 'not-published' when it does not publish
   * within the source wait, 'negotiation-failed' on a bad offer, 'closed' after close. Holds across the source's
   * republishes. Optional, with importSource: an engine without them cannot serve a room across nodes.
   */
  exportSource?(offer: RelayOffer): Promise<RelayExportHandle>;
  /**
   * Node-to-node relay, importing side: makes `sourceId`, published on another node, a source of engine room
   * `roomId` here. The engine makes its offer, hands it to `connect` (which carries it to the exporting engine's
   * exportSource, with `credential`) and follows the answer's life (RelayImportHandle says how it closes). The
   * source then counts as joined and published here: local members subscribe to it with `subscribe` (simulcast
   * choice, key-frame requests, NACKs as for a local source); key-frame requests of its local subscribers go
   * upstream coalesced (one per the engine's key-frame interval). One import per source: a second call while one
   * is open resolves to the same handle. Rejects 'refused' when `sourceId` is a local participant here, or with
   * the connector's own EngineError (e.g. the exporting side's 'refused', 'not-published'); 'negotiation-failed'
   * on a bad answer; 'closed' after close.
   */
  importSource?(roomId: string, sourceId: string, credential: RelayCredential, connect: RelayConnector): Promise<RelayImportHandle>;
  /** Subscribes to engine events; returns the unsubscribe function. */
  onEvent(listener: EngineListener): () => void;
  /** Current counters. */
  stats(): EngineStats;
  /**
   * Optional: asks the media server what it holds (Janus: its admin API), a second opinion on stats()'s counts,
   * which are the server's own bookkeeping. Resolves undefined when the media server cannot tell (not reachable,
   * no admin access); never rejects.
   */
  inspect?(): Promise<MediaServerReport | undefined>;
  /** Closes everything (every handle closes 'engine-closed'); later operations reject 'closed'. */
  close(): Promise<void>;
}
