/**
 * A media engine for signalling tests with no media: records what signalling asks of it and follows the
 * contract's bookkeeping (rooms, subscriptions, handles). Not an engine the conformance suite is meant to pass.
 */
import { EngineEvents } from '../../src/engine/engine-events.js';
import { EngineMembership } from '../../src/engine/engine-membership.js';
import {
  EngineError, type EngineListener, type EngineStats, type SubscriptionHandle, type SubscriptionWants, type MediaEngine, type UplinkHandle,
} from '../../src/engine/media-engine.js';

export class RecordingEngine implements MediaEngine {
  readonly published: string[] = [];
  readonly subscriptions: { subscriberId: string; sourceId: string; wants: SubscriptionWants }[] = [];
  readonly rooms = new Map<string, string>();
  readonly events = new EngineEvents();
  readonly #members = new EngineMembership((detail) => this.events.emit({ type: 'cleanup-failed', operation: 'handle-close', detail }));

  joinRoom(participantId: string, roomId: string): void {
    this.rooms.set(participantId, roomId);
    this.#members.join(participantId, roomId);
  }

  /** Where a real engine negotiates (a subclass may hold it): between the start of an operation and its handle. */
  protected async negotiating(): Promise<void> {}

  async publish(participantId: string): Promise<UplinkHandle> {
    const { adopt } = this.#members.beginPublish(participantId);
    await this.negotiating();
    this.published.push(participantId);
    return adopt('v=0 answer', () => undefined);
  }

  async unpublish(participantId: string): Promise<void> {
    await this.#members.unpublish(participantId);
  }

  async subscribe(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<SubscriptionHandle> {
    const adopt = this.#members.beginSubscribe(subscriberId, sourceId);
    await this.negotiating();
    this.subscriptions.push({ subscriberId, sourceId, wants: { ...wants } });
    return adopt({ audio: '0', video: '1', aux: '2' }, () => undefined);
  }

  async resetDownlink(subscriberId: string): Promise<void> {
    this.#members.endSubscriptions(subscriberId, 'downlink-closed');
  }

  async updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void> {
    if (!this.subscriptions.some((s) => s.subscriberId === subscriberId && s.sourceId === sourceId)) {
      throw new EngineError('not-subscribed', `${subscriberId} has no subscription to ${sourceId}`);
    }
    this.subscriptions.push({ subscriberId, sourceId, wants: { ...wants } });
  }

  async unsubscribe(subscriberId: string, sourceId: string): Promise<void> {
    this.#members.endSubscription(subscriberId, sourceId, 'unsubscribed');
  }

  async removeParticipant(participantId: string): Promise<void> {
    this.rooms.delete(participantId);
    await this.#members.leave(participantId);
  }

  async endRoom(roomId: string): Promise<void> {
    await Promise.all(this.#members.membersOf(roomId).map((id) => this.removeParticipant(id)));
  }

  onEvent(listener: EngineListener): () => void {
    return this.events.on(listener);
  }

  stats(): EngineStats {
    return { uplinks: 0, downlinks: 0, subscriptions: 0, forwardedPackets: undefined, forwardedBytes: undefined, receivedPackets: undefined };
  }

  async close(): Promise<void> {}
}
