/**
 * A media engine for signalling tests with no media: records what signalling asks of it and follows the
 * contract's bookkeeping (rooms, subscriptions). Not an engine the conformance suite is meant to pass.
 */
import { EngineEvents } from '../../src/engine/engine-events.js';
import { EngineError, type DownlinkMids, type EngineListener, type EngineStats, type SubscriptionWants, type MediaEngine } from '../../src/engine/media-engine.js';

export class RecordingEngine implements MediaEngine {
  readonly published: string[] = [];
  readonly subscriptions: { subscriberId: string; sourceId: string; wants: SubscriptionWants }[] = [];
  readonly rooms = new Map<string, string>();
  readonly events = new EngineEvents();

  joinRoom(participantId: string, roomId: string): void {
    this.rooms.set(participantId, roomId);
  }

  async publish(participantId: string): Promise<string> {
    this.published.push(participantId);
    return 'v=0 answer';
  }

  async unpublish(): Promise<void> {}

  async subscribe(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<DownlinkMids> {
    this.subscriptions.push({ subscriberId, sourceId, wants: { ...wants } });
    return { audio: '0', video: '1', aux: '2' };
  }

  async resetDownlink(): Promise<void> {}

  async updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void> {
    if (!this.subscriptions.some((s) => s.subscriberId === subscriberId && s.sourceId === sourceId)) {
      throw new EngineError('not-subscribed', `${subscriberId} has no subscription to ${sourceId}`);
    }
    this.subscriptions.push({ subscriberId, sourceId, wants: { ...wants } });
  }

  async unsubscribe(): Promise<void> {}

  async removeParticipant(participantId: string): Promise<void> {
    this.rooms.delete(participantId);
  }

  onEvent(listener: EngineListener): () => void {
    return this.events.on(listener);
  }

  stats(): EngineStats {
    return { uplinks: 0, downlinks: 0, subscriptions: 0, forwardedPackets: undefined, forwardedBytes: undefined, receivedPackets: undefined };
  }

  async close(): Promise<void> {}
}
