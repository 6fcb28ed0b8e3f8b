import { EngineError, type HandleCloseReason, type RelayAnswer, type RelayConnector, type RelayCredential, type RelayOffer, type SubscriptionHandle, type SubscriptionWants } from '../media-engine.js';
import { OwnedRelayExport, OwnedRelayImport, type HandleReport } from '../engine-handles.js';
import type { EngineMembership } from '../engine-membership.js';
import { relayCredentialFault } from '../relay/relay-credential.js';
import type { ForwardCounter, PeerNetworkOptions, PublisherSources } from '../../webrtc/index.js';
import { RelayExportLink } from './relay-export-link.js';
import { RelayImportLink } from './relay-import-link.js';
import { ALL_LAYERS, relayLayersOf, type RelayLayers } from './relay-layers.js';

/** What the relay needs of its embedded engine. */
export interface EmbeddedRelayHost {
  net: PeerNetworkOptions;
  counter: ForwardCounter;
  /** The cluster secret credentials are checked with; without one the engine exports nothing. */
  secret: string | undefined;
  sourceWaitMs: number;
  members: EngineMembership;
  report: HandleReport;
  /** Throws 'closed' once the engine is closed. */
  assertOpen(): void;
  /** The participant's forward sources (made on first use). */
  sourcesOf(participantId: string): PublisherSources;
  /** Removes an imported source whose import closed (its local subscribers' handles close 'source-left'). */
  removeImported(sourceId: string): Promise<void>;
}

interface Import {
  handle: OwnedRelayImport;
  link: RelayImportLink;
}

/** How an import closes when its export did (RelayImportHandle). */
function importReason(exportReason: HandleCloseReason): HandleCloseReason {
  if (exportReason === 'room-ended') return 'room-ended';
  if (exportReason === 'source-left' || exportReason === 'left' || exportReason === 'closed') return 'source-left';
  return 'link-lost';
}

/**
 * The embedded engine's node-to-node relay (MediaEngine.exportSource and importSource): exports are werift links
 * fed from a source's forward sources (RelayExportLink), imports are werift links feeding the forward sources of
 * a source that then counts as joined and published in the local room (RelayImportLink), so every local
 * subscription to it is the engine's ordinary forwarding; what its local subscriptions want is what the exporter
 * sends (RelayLayers, told on the link's data channel). Ties both to the participants' lives: a source's leave
 * closes its exports, an imported source's removal (endRoom, close) its import.
 */
export class EmbeddedRelay {
  readonly #host: EmbeddedRelayHost;
  /** Exports, by source. */
  readonly #exports = new Map<string, Set<OwnedRelayExport>>();
  readonly #imports = new Map<string, Import>();
  /** What the local subscriptions to each imported source want, by subscriber (RelayLayers, told to the exporter). */
  readonly #wants = new Map<string, Map<string, { handle: SubscriptionHandle; wants: SubscriptionWants }>>();
  /** What each export wants of its source (its importer's RelayLayers): an imported source exported on needs it too. */
  readonly #exportLayers = new Map<OwnedRelayExport, RelayLayers>();
  /** Imports being set up, by source (a second call resolves to the first's handle). */
  readonly #pending = new Map<string, Promise<OwnedRelayImport>>();

  constructor(host: EmbeddedRelayHost) {
    this.#host = host;
  }

  get exports(): number {
    let count = 0;
    for (const set of this.#exports.values()) count += set.size;
    return count;
  }

  get imports(): number {
    return this.#imports.size;
  }

  async exportSource(offer: RelayOffer): Promise<OwnedRelayExport> {
    const host = this.#host;
    host.assertOpen();
    const { sourceId, credential } = offer;
    const fault = relayCredentialFault(host.secret, sourceId, credential);
    if (fault) throw new EngineError('refused', `relay of ${sourceId} to node ${credential.nodeId} refused: ${fault}`);
    host.members.roomOf(sourceId);
    await host.members.whenPublished(sourceId, host.sourceWaitMs);
    host.assertOpen();
    host.members.roomOf(sourceId); // left while it was waited for: 'not-joined'
    const early: { lost?: string; handle?: OwnedRelayExport } = {};
    let made: { link: RelayExportLink; answer: string };
    try {
      made = await RelayExportLink.answer(host.net, host.counter, host.sourcesOf(sourceId), offer.offer, (detail) => {
        if (early.handle) void early.handle.release('link-lost');
        else early.lost = detail;
      }, ALL_LAYERS, (layers) => {
        if (!early.handle || early.handle.closed) return;
        this.#exportLayers.set(early.handle, layers);
        this.#tell(sourceId);
      });
    } catch (error) {
      throw EngineError.from(error, 'negotiation-failed');
    }
    const { link } = made;
    const set = this.#exports.get(sourceId) ?? new Set<OwnedRelayExport>();
    const handle = new OwnedRelayExport(sourceId, credential.nodeId, made.answer, () => {
      link.close();
      set.delete(handle);
      if (this.#exportLayers.delete(handle)) this.#tell(sourceId);
      if (set.size === 0 && this.#exports.get(sourceId) === set) this.#exports.delete(sourceId);
    }, host.report);
    early.handle = handle;
    this.#exports.set(sourceId, set);
    set.add(handle);
    this.#exportLayers.set(handle, ALL_LAYERS); // until its importer says
    this.#tell(sourceId);
    // The source left (or the engine closed) while the link was negotiated: nothing of it stays.
    if (!host.members.participants().includes(sourceId)) void handle.release('source-left');
    else if (early.lost !== undefined) void handle.release('link-lost');
    return handle;
  }

  importSource(roomId: string, sourceId: string, credential: RelayCredential, connect: RelayConnector): Promise<OwnedRelayImport> {
    this.#host.assertOpen();
    const open = this.#imports.get(sourceId);
    if (open && !open.handle.closed) return Promise.resolve(open.handle);
    const pending = this.#pending.get(sourceId);
    if (pending) return pending;
    if (this.#host.members.participants().includes(sourceId)) {
      return Promise.reject(new EngineError('refused', `${sourceId} is a participant of this engine: it is not imported`));
    }
    const made = this.#import(roomId, sourceId, credential, connect).finally(() => this.#pending.delete(sourceId));
    this.#pending.set(sourceId, made);
    return made;
  }

  async #import(roomId: string, sourceId: string, credential: RelayCredential, connect: RelayConnector): Promise<OwnedRelayImport> {
    const host = this.#host;
    const early: { lost?: string; handle?: OwnedRelayImport } = {};
    const { link, offer } = await RelayImportLink.offer(host.net, host.sourcesOf(sourceId), (detail) => {
      if (early.handle) void early.handle.release('link-lost');
      else early.lost = detail;
    }).catch((error: unknown) => { throw EngineError.from(error, 'negotiation-failed'); });
    let answer: RelayAnswer;
    try {
      answer = await connect({ sourceId, offer, credential });
    } catch (error) {
      link.close();
      throw EngineError.from(error, 'refused');
    }
    const drop = (error: EngineError): never => {
      link.close();
      void answer.close();
      throw error;
    };
    try {
      await link.accept(answer.answer);
    } catch (error) {
      drop(EngineError.from(error, 'negotiation-failed'));
    }
    try {
      host.assertOpen();
    } catch (error) {
      drop(EngineError.from(error, 'closed'));
    }
    if (host.members.participants().includes(sourceId)) drop(new EngineError('refused', `${sourceId} joined this engine meanwhile: it is not imported`));
    const handle = new OwnedRelayImport(roomId, sourceId, () => {
      link.close();
      if (this.#imports.get(sourceId)?.handle === handle) {
        this.#imports.delete(sourceId);
        this.#wants.delete(sourceId);
      }
      const closed = answer.close();
      // Its local subscriptions close 'source-left' (unless its removal is what closed it).
      const removed = host.members.participants().includes(sourceId) ? host.removeImported(sourceId) : Promise.resolve();
      return Promise.all([closed, removed]).then(() => undefined);
    }, host.report);
    early.handle = handle;
    this.#imports.set(sourceId, { handle, link });
    host.members.join(sourceId, roomId);
    host.members.published(sourceId);
    answer.onClose((reason) => { void handle.release(importReason(reason)); });
    if (early.lost !== undefined) void handle.release('link-lost');
    this.#tell(sourceId); // nothing flows until a local subscriber wants it
    return handle;
  }

  /** A local subscription was made (`wants` its streams): to an imported source, the exporter is told what is needed now. */
  subscribed(handle: SubscriptionHandle, wants: SubscriptionWants): void {
    const { sourceId, subscriberId } = handle;
    if (handle.closed || !this.#imports.has(sourceId)) return;
    const bySubscriber = this.#wants.get(sourceId) ?? new Map<string, { handle: SubscriptionHandle; wants: SubscriptionWants }>();
    this.#wants.set(sourceId, bySubscriber);
    bySubscriber.set(subscriberId, { handle, wants });
    handle.onClose(() => {
      if (bySubscriber.get(subscriberId)?.handle !== handle) return; // replaced by a later one
      bySubscriber.delete(subscriberId);
      this.#tell(sourceId);
    });
    this.#tell(sourceId);
  }

  /** A local subscription's wants changed (updateSubscription). */
  updated(subscriberId: string, sourceId: string, wants: SubscriptionWants): void {
    const entry = this.#wants.get(sourceId)?.get(subscriberId);
    if (!entry) return;
    entry.wants = wants;
    this.#tell(sourceId);
  }

  #tell(sourceId: string): void {
    const imported = this.#imports.get(sourceId);
    if (!imported || imported.handle.closed) return;
    const exported = [...(this.#exports.get(sourceId) ?? [])].map((handle) => this.#exportLayers.get(handle)).filter((layers): layers is RelayLayers => layers !== undefined);
    imported.link.want(relayLayersOf([...(this.#wants.get(sourceId)?.values() ?? [])].map((entry) => entry.wants), exported));
  }

  /**
   * The participant left this engine ('left', its room's end, the engine's close): its exports close
   * ('source-left' for a leave), and its import when it was an imported source.
   */
  left(participantId: string, reason: 'left' | 'room-ended' | 'engine-closed'): Promise<void> {
    const releases: Promise<void>[] = [];
    for (const handle of [...(this.#exports.get(participantId) ?? [])]) releases.push(handle.release(reason === 'left' ? 'source-left' : reason));
    const imported = this.#imports.get(participantId);
    if (imported) releases.push(imported.handle.release(reason === 'left' ? 'closed' : reason));
    return Promise.all(releases).then(() => undefined);
  }
}
