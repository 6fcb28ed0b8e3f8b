import type { LeaveReason, PushMap } from '@conclave/protocol';
import type { Logger } from 'pino';
import type { Participant } from './participant.js';
import type { Room, RoomRegistry } from './room.js';

/** What ending a participant's session needs. */
export interface LeaveDeps {
  rooms: RoomRegistry;
  logger: Logger;
  /** Releases what the participant holds outside its room (media links, data link, message limits). Never throws. */
  releaseParticipant(participantId: string): void;
}

/** Ends a participant's session: media, subscriptions, membership (and the room when it empties). */
export function removeParticipant(ctx: LeaveDeps, room: Room, participant: Participant, reason: LeaveReason): void {
  participant.dispose();
  if (room.get(participant.userId) !== participant) return;
  // The engine's leave closes the subscriptions' handles to it: they leave the others' subscriptions.
  ctx.releaseParticipant(participant.id);
  room.remove(participant, reason);
  ctx.rooms.release(room);
  ctx.logger.info({ room: room.key, userId: participant.userId, reason }, 'left');
}

/**
 * Removes a participant on the server's initiative (kick, ban, room dismissal): a connected client is
 * told `banned` with the reason and its connection closed; a session waiting to be resumed is ended.
 */
export function evictParticipant(ctx: LeaveDeps, room: Room, participant: Participant, banned: PushMap['banned']): void {
  participant.link.evict(banned);
  if (room.get(participant.userId) === participant) removeParticipant(ctx, room, participant, 'kick');
}
