import type { Logger } from 'pino';
import {
  DEFAULT_SOURCE_WAIT_MS, EngineError,
  type DownlinkNegotiator, type EngineListener, type EngineStats, type MediaEngine, type SourceSlot,
  type SubscriptionHandle, type SubscriptionWants, type UplinkHandle, type UplinkMedia,
} from '../media-engine.js';
import { playbackWants, type ClientOfferPlayback, type PlaybackStream, type PlaybackWants } from '../client-offer.js';
import { EngineEvents } from '../engine-events.js';
import { EngineMembership } from '../engine-membership.js';
import { SubscriberDownlinks } from '../subscriber-downlinks.js';
import { WorkerDownlink } from './worker-downlink.js';
import { WorkerProcess, type WorkerEvent } from './worker-process.js';

export interface WorkerEngineOptions {
  /** The address of the worker's UDP socket (its host candidate). */
  iceAddress: string;
  /** How long a subscription waits for its source to publish (default DEFAULT_SOURCE_WAIT_MS). */
  sourceWaitMs?: number;
  /** A worker binary to run instead of the crate's build (CONCLAVE_WORKER_BINARY). */
  binary?: string;
  logger?: Logger;
}

/**
 * The native media engine: conclave-media-worker (worker/, on str0m), a process of its own driven over its stdin
 * and stdout. The server keeps the contract's bookkeeping (rooms, handles, waits: EngineMembership); the worker
 * holds the peer connections and forwards media (docs/architecture.md "Media engines: the media worker").
 */
export class WorkerEngine implements MediaEngine, ClientOfferPlayback {
  readonly #worker: WorkerProcess;
  readonly #sourceWaitMs: number;
  readonly #events = new EngineEvents();
  readonly #members = new EngineMembership((detail) => this.#events.emit({ type: 'cleanup-failed', operation: 'handle-close', detail }));
  readonly #downlinks = new SubscriberDownlinks<WorkerDownlink>(this.#events, this.#members);
  /** Publishers' uplinks: the worker's key of each. */
  readonly #uplinks = new Map<string, number>();
  readonly #flowing = new Set<string>();
  /** Client-offered playback links (WHEP): viewer → source. */
  readonly #playbacks = new Map<string, string>();
  #peers = 0;
  #counters: { packets: number; bytes: number; received: Record<SourceSlot, number> } = { packets: 0, bytes: 0, received: { audio: 0, video: 0, small: 0, aux: 0 } };
  #closed = false;

  private constructor(worker: WorkerProcess, options: WorkerEngineOptions) {
    this.#worker = worker;
    this.#sourceWaitMs = options.sourceWaitMs ?? DEFAULT_SOURCE_WAIT_MS;
    worker.onEvent = (event) => this.#onWorkerEvent(event);
    worker.onRestart = () => this.#restarted();
  }

  /** Builds the worker when needed (worker/build.sh), starts it, and resolves once it listens. */
  static async start(options: WorkerEngineOptions): Promise<WorkerEngine> {
    return new WorkerEngine(await WorkerProcess.start(options), options);
  }

  /** The worker process (tests: its crash). */
  get process(): WorkerProcess {
    return this.#worker;
  }

  #open(): void {
    if (this.#closed) throw new EngineError('closed', 'media engine closed');
  }

  #onWorkerEvent(event: WorkerEvent): void {
    switch (event.event) {
      case 'feed-up':
        if (!this.#uplinks.has(event.participant)) return;
        this.#flowing.add(event.participant);
        this.#events.emit({ type: 'feed-up', participantId: event.participant });
        return;
      case 'uplink-lost':
        if (this.#uplinks.has(event.participant)) this.#events.emit({ type: 'uplink-lost', participantId: event.participant, detail: event.detail });
        return;
      case 'downlink-failed':
        if (this.#playbacks.delete(event.subscriber)) {
          this.#closeWorkerDownlink(event.subscriber);
          this.#events.emit({ type: 'downlink-failed', subscriberId: event.subscriber, detail: event.detail });
          return;
        }
        if (this.#downlinks.get(event.subscriber)) {
          this.#downlinks.close(event.subscriber);
          this.#events.emit({ type: 'downlink-failed', subscriberId: event.subscriber, detail: event.detail });
        }
        return;
      case 'census':
        this.#peers = event.peers;
        return;
      case 'counters':
        this.#counters = { packets: event.forwardedPackets, bytes: event.forwardedBytes, received: { ...event.received } };
        return;
      case 'ready':
        return;
    }
  }

  /** The worker restarted: every link it held went with it. */
  #restarted(): void {
    this.#members.endMedia('engine-restarted');
    this.#uplinks.clear();
    this.#flowing.clear();
    this.#playbacks.clear();
    this.#downlinks.forgetAll();
    this.#peers = 0;
    this.#events.emit({ type: 'engine-restarted' });
  }

  joinRoom(participantId: string, roomId: string): void {
    this.#members.join(participantId, roomId);
  }

  async publish(participantId: string, offerSdp: string): Promise<UplinkHandle> {
    this.#open();
    const { adopt } = this.#members.beginPublish(participantId);
    void this.#members.uplinkOf(participantId)?.release('replaced');
    let reply: Record<string, unknown>;
    try {
      reply = await this.#worker.request('publish', { participant: participantId, offer: offerSdp });
    } catch (error) {
      throw EngineError.from(error, 'negotiation-failed');
    }
    const key = Number(reply.uplink);
    this.#uplinks.set(participantId, key);
    this.#flowing.delete(participantId);
    const handle = adopt(String(reply.answer), () => this.#closeUplink(participantId, key));
    if (!handle.closed) this.#members.published(participantId);
    return handle;
  }

  async #closeUplink(participantId: string, key: number): Promise<void> {
    if (this.#uplinks.get(participantId) === key) {
      this.#uplinks.delete(participantId);
      this.#flowing.delete(participantId);
      this.#members.unpublished(participantId);
    }
    await this.#worker.request('unpublish', { participant: participantId, uplink: key });
  }

  async unpublish(participantId: string): Promise<void> {
    await this.#members.unpublish(participantId);
  }

  uplinkMedia(participantId: string): UplinkMedia {
    if (!this.#uplinks.has(participantId)) return 'none';
    return this.#flowing.has(participantId) ? 'flowing' : 'idle';
  }

  async subscribe(subscriberId: string, sourceId: string, wants: SubscriptionWants, negotiate: DownlinkNegotiator): Promise<SubscriptionHandle> {
    this.#open();
    const adopt = this.#members.beginSubscribe(subscriberId, sourceId);
    await this.#members.whenPublished(sourceId, this.#sourceWaitMs);
    this.#open();
    this.#members.assertSameRoom(subscriberId, sourceId);
    const downlink = this.#downlinks.getOrMake(subscriberId, (onFailed) => new WorkerDownlink(this.#worker, subscriberId, onFailed));
    const mids = await downlink.subscribe(sourceId, wants, negotiate);
    return adopt(mids, () => (this.#downlinks.get(subscriberId) === downlink ? downlink.unsubscribe(sourceId) : undefined));
  }

  async answerPlayback(viewerId: string, sourceId: string, stream: PlaybackStream, offerSdp: string, wants?: PlaybackWants): Promise<string> {
    this.#open();
    this.#members.assertSameRoom(viewerId, sourceId);
    await this.#members.whenPublished(sourceId, this.#sourceWaitMs);
    this.#open();
    this.#closePlayback(viewerId);
    let reply: Record<string, unknown>;
    try {
      reply = await this.#worker.request('playback', { viewer: viewerId, source: sourceId, stream, offer: offerSdp, wants: playbackWants(stream, wants) });
    } catch (error) {
      throw EngineError.from(error, 'negotiation-failed');
    }
    this.#playbacks.set(viewerId, sourceId);
    return String(reply.answer);
  }

  #closePlayback(viewerId: string): void {
    if (this.#playbacks.delete(viewerId)) this.#closeWorkerDownlink(viewerId);
  }

  #closeWorkerDownlink(subscriberId: string): void {
    this.#worker.request('closeDownlink', { subscriber: subscriberId }).catch((error: unknown) => this.#cleanupFailed('handle-close', error));
  }

  async updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void> {
    this.#open();
    const downlink = this.#downlinks.get(subscriberId);
    if (!downlink?.has(sourceId)) throw new EngineError('not-subscribed', `${subscriberId} has no subscription to ${sourceId}`);
    await downlink.update(sourceId, wants);
  }

  async unsubscribe(subscriberId: string, sourceId: string): Promise<void> {
    this.#members.endSubscription(subscriberId, sourceId, 'unsubscribed');
    await this.#downlinks.get(subscriberId)?.unsubscribe(sourceId).catch((error: unknown) => this.#cleanupFailed('unsubscribe', error));
  }

  async resetDownlink(subscriberId: string): Promise<void> {
    this.#downlinks.close(subscriberId);
  }

  async removeParticipant(participantId: string): Promise<void> {
    await this.#remove(participantId, 'left');
  }

  async #remove(participantId: string, reason: 'left' | 'room-ended' | 'engine-closed'): Promise<void> {
    const released = this.#members.leave(participantId, reason);
    const reset = this.resetDownlink(participantId);
    this.#closePlayback(participantId);
    for (const [viewerId, sourceId] of this.#playbacks) if (sourceId === participantId) this.#closePlayback(viewerId);
    const ends = [...this.#downlinks.values()].map((downlink) => downlink.unsubscribe(participantId).catch((error: unknown) => this.#cleanupFailed('unsubscribe', error)));
    await Promise.all([released, reset, ...ends]);
  }

  #cleanupFailed(operation: 'unsubscribe' | 'handle-close', error: unknown): void {
    if (this.#closed) return; // the worker goes with the engine: nothing leaks
    this.#events.emit({ type: 'cleanup-failed', operation, detail: error instanceof Error ? error.message : String(error) });
  }

  endRoom(roomId: string): Promise<void> {
    return this.#members.endRoom(roomId, (sourceId) => this.unshareSource(sourceId, roomId), (id) => this.#remove(id, 'room-ended'));
  }

  /** Cross-room: the worker forwards by participant, whatever its room; the membership says who may subscribe. */
  async shareSource(sourceId: string, roomId: string): Promise<void> {
    this.#open();
    this.#members.share(sourceId, roomId);
  }

  async unshareSource(sourceId: string, roomId: string): Promise<void> {
    if (!this.#members.unshare(sourceId, roomId)) return;
    await Promise.all(this.#members.membersOf(roomId).map(async (id) => {
      this.#members.endSubscription(id, sourceId, 'unshared');
      await this.#downlinks.get(id)?.unsubscribe(sourceId).catch((error: unknown) => this.#cleanupFailed('unsubscribe', error));
    }));
  }

  onEvent(listener: EngineListener): () => void {
    return this.#events.on(listener);
  }

  stats(): EngineStats {
    return {
      uplinks: this.#uplinks.size,
      downlinks: this.#downlinks.size + this.#playbacks.size,
      subscriptions: this.#downlinks.subscriptions,
      forwardedPackets: this.#counters.packets,
      forwardedBytes: this.#counters.bytes,
      receivedPackets: { ...this.#counters.received },
      peerConnections: this.#peers,
      mediaServerMemoryBytes: this.#worker.memoryBytes(),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const ids = new Set([...this.#downlinks.ids(), ...this.#members.participants()]);
    await Promise.all([...ids].map((id) => this.#remove(id, 'engine-closed')));
    this.#closed = true;
    await this.#worker.stop();
  }
}
