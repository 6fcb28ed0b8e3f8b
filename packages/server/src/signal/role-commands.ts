import { ROLE_CODE, SCENE_CODE, SERVER_CODE, type CommandMap } from '@conclave/protocol';
import type { SignalDeps } from './signal-deps.js';
import { CommandError } from './command-error.js';
import { capacityRefusal } from '../room/capacity.js';
import { parseRoomRef } from '../ids/room-ref.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';

/** What the switch-role command needs of its session. */
export interface RoleCaller {
  joined(): { participant: Participant; room: Room };
  /** The scene the session joined with. */
  scene(): number;
  /** Ends the participant's uplink and clears its flags (as unpublish). */
  stopPublishing(participant: Participant, room: Room): Promise<void>;
}

type RoleHandlers = { 'switch-role': (data: CommandMap['switch-role']['data']) => Promise<CommandMap['switch-role']['reply']> };

/**
 * Ends every member's subscription to `source`, which the others no longer see (it became an audience): their
 * clients forgot it on its peer-leave without unsubscribing, so the server lets the engine go of those links.
 */
export function dropSubscriptionsTo(room: Room, source: Participant): void {
  // A handle's close never rejects: a failed release is the engine's cleanup-failed event (logged, counted).
  for (const member of room.participants()) if (member !== source) void member.subscriptions.get(source.userId)?.close();
}

/**
 * switch-role (docs/behaviour.md §6): live scene only; a new privateMapKey replaces the session's privileges;
 * the room's limits of the target role apply. Becoming an audience ends the user's cross-room links and its
 * publishing, and hides it: the others see it leave ('role change') and lose their subscriptions to it;
 * becoming an anchor shows it again (docs/behaviour.md §3.5). `context` is read at call time.
 */
export function roleCommandHandlers(context: () => SignalDeps, caller: RoleCaller): RoleHandlers {
  return {
    'switch-role': async (data) => {
      const ctx = context();
      const { participant, room } = caller.joined();
      if (caller.scene() !== SCENE_CODE.live) throw new CommandError(SERVER_CODE.PERMISSION_DENIED, 'switchRole can only be called in live mode');
      if (data.privateMapKey) {
        // A new privateMapKey replaces the session's privileges (it must be for this user and room).
        const target = parseRoomRef(room.ref)!;
        const key = await ctx.auth.verifyPrivateMapKey(room.sdkAppId, participant.userId, data.privateMapKey, { roomId: target.roomId, useStringRoomId: target.isString });
        if (!key.ok) throw new CommandError(key.code, key.message);
        participant.privileges = key.privileges;
      }
      if (data.role !== participant.role) {
        const full = capacityRefusal(room, SCENE_CODE.live, data.role, participant.userId, ctx.config.limits);
        if (full) throw new CommandError(full.code, full.message);
      }
      room.changeRole(participant, data.role);
      if (data.role === ROLE_CODE.audience) {
        ctx.crossRooms.demoted(participant);
        dropSubscriptionsTo(room, participant);
        await caller.stopPublishing(participant, room);
      }
      return {};
    },
  };
}
