/**
 * The node-to-node relay's types of the media-engine contract (MediaEngine.exportSource and importSource in
 * media-engine.ts, which re-exports them; docs/architecture.md "Rooms across nodes").
 */
import type { EngineHandle, HandleCloseReason } from '../media-engine.js';

/**
 * A cluster member's leave to pull one source from another node's engine (node-to-node relay): an HMAC-SHA256
 * with the cluster secret over the source id, the importing node's id and the expiry (engine/relay/relay-credential.ts
 * mints and checks it). The exporting engine refuses a relay without a valid one ('refused').
 */
export interface RelayCredential {
  /** The importing node's id (cluster/node-id). */
  nodeId: string;
  /** Unix milliseconds after which the credential is refused. */
  expiresAt: number;
  /** Hex HMAC-SHA256 of `${sourceId}\n${nodeId}\n${expiresAt}`. */
  token: string;
}

/** What the importing engine asks of the exporting one (the cluster layer carries it between nodes). */
export interface RelayOffer {
  /** The source (participant) to pull, published on the exporting node. */
  sourceId: string;
  /**
   * The importing engine's offer: opaque outside engines of its kind (the cluster layer carries it as it is), an SDP
   * offer for the embedded engine.
   */
  offer: string;
  credential: RelayCredential;
}

/**
 * The exporting side's answer as the importing side sees it: the answer SDP and the export's life. Its `onClose`
 * tells why the export closed (the importer closes 'source-left' on the source's leave, 'room-ended' on the room's
 * end, 'link-lost' otherwise); `close` releases the export (the importer calls it when it closes). In one process it
 * is the RelayExportHandle itself; between nodes the cluster layer carries both.
 */
export interface RelayAnswer {
  /** The exporting engine's answer, opaque like the offer (an SDP answer for the embedded engine). */
  readonly answer: string;
  onClose(listener: (reason: HandleCloseReason) => void): () => void;
  close(): Promise<void>;
}

/** Carries a relay offer to the exporting node and brings its answer back (MediaEngine.importSource). */
export type RelayConnector = (offer: RelayOffer) => Promise<RelayAnswer>;

/**
 * One source sent to one importing node (MediaEngine.exportSource): one link whatever the number of subscribers
 * there. Closes with the source's leave ('source-left'), its room's end ('room-ended'), the engine's close, the
 * link's failure ('link-lost'), or its owner's close (the importer released it: 'closed').
 */
export interface RelayExportHandle extends EngineHandle, RelayAnswer {
  readonly sourceId: string;
  /** The importing node (its credential's). */
  readonly importerNodeId: string;
}

/**
 * A source of another node made a source of this engine's room (MediaEngine.importSource): local members subscribe
 * to it with `subscribe` as to a local one. Closes 'source-left' when the exported source left its node,
 * 'room-ended' on either side's endRoom, 'link-lost' when the node link fails, 'closed' by its owner; local
 * subscriptions to it then close 'source-left', as for a local source that leaves.
 */
export interface RelayImportHandle extends EngineHandle {
  readonly roomId: string;
  readonly sourceId: string;
}
