import type { Logger } from 'pino';
import type { EngineEvent, MediaEngine } from '../engine/media-engine.js';
import type { Participant } from '../room/participant.js';
import type { RoomRegistry } from '../room/room.js';
import { downlinkSignal } from './downlink-signal.js';

/** What turning engine events into pushes needs. */
export interface EnginePushDeps {
  engine: Pick<MediaEngine, 'onEvent'>;
  rooms: RoomRegistry;
  logger: Logger;
}

/**
 * Tells clients what happened in the media engine without a command (docs/architecture.md "The
 * media-engine contract"): a downlink the engine dropped, or every downlink after an engine restart, is
 * announced with `downlink-closed`, so the client rebuilds its downlink without guessing it from a changed
 * ICE session. Failed clean-ups are logged (metrics count them from the same events). Returns the unsubscribe.
 */
export function pushEngineEvents({ engine, rooms, logger }: EnginePushDeps): () => void {
  const participants = (): Participant[] => [...rooms.rooms()].flatMap((room) => [...room.participants()]);
  const closeDownlink = (participant: Participant, reason: 'failed' | 'engine-restarted', message: string) => {
    // The engine closed the downlink's subscription handles before telling: they left participant.subscriptions.
    downlinkSignal(participant).cancel();
    participant.push('downlink-closed', { reason, message: message.slice(0, 1024) });
  };
  return engine.onEvent((event: EngineEvent) => {
    switch (event.type) {
      case 'downlink-failed': {
        const participant = participants().find((p) => p.id === event.subscriberId);
        logger.warn({ userId: participant?.userId, detail: event.detail }, 'media engine dropped a failed downlink; the client is told');
        if (participant) closeDownlink(participant, 'failed', event.detail);
        return;
      }
      case 'engine-restarted':
        logger.warn('media engine restarted: every client is told to rebuild its downlink');
        for (const participant of participants()) closeDownlink(participant, 'engine-restarted', 'the media engine restarted');
        return;
      case 'cleanup-failed':
        logger.warn({ operation: event.operation, detail: event.detail }, 'media engine: a clean-up failed (it may leak)');
        return;
      case 'feed-up':
        return;
      case 'uplink-lost':
        // A signalling client sees its own link fail and publishes again (a WHIP publisher is removed by whep/).
        return;
    }
  });
}
