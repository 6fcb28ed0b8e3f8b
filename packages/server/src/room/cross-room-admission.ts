import { PRIVILEGE, hasPrivilege } from '@conclave/usersig';
import type { Authenticator } from '../auth/authenticator.js';
import type { LimitsConfig } from '../config/config.js';
import type { RoomId, RoomRef } from '../ids/room-ref.js';
import type { BanList } from './ban-list.js';
import { visitorRefusal } from './capacity.js';
import type { Participant } from './participant.js';
import type { Room } from './room.js';

/** What authorising a cross-room visit checks against. */
export interface VisitDeps {
  auth: Pick<Authenticator, 'app' | 'verifyPrivateMapKey'>;
  /** The admin API's bans (a cluster node's include those made on the other nodes). */
  bans: Pick<BanList, 'find'>;
  limits: LimitsConfig;
}

/** A room of the caller's app a visit goes to, as the command named it. */
export interface VisitTarget extends RoomId {
  sdkAppId: number;
  ref: RoomRef;
}

/** A visit allowed, with what the visitor may send there; or refused, with why (for the server's log only). */
export type VisitCheck = { ok: true; privileges: number } | { ok: false; why: string };

/**
 * The caller's own rights in the other room of a cross-room link (docs/behaviour.md §7.6), checked as a join of it
 * there would be: a privateMapKey when the app requires one, or when one is given (made for this user and that
 * room, not expired, with the enter-room bit; its bits, with those of the caller's own session, rule what the
 * other room receives), and no ban from that room. The room need not exist yet: this comes before anything
 * about the room is looked at, so the answer's time does not tell whether it does.
 */
export async function authoriseVisit(deps: VisitDeps, visitor: Participant, target: VisitTarget, privateMapKey: string | undefined): Promise<VisitCheck> {
  let privileges = visitor.privileges;
  if (privateMapKey !== undefined && privateMapKey !== '') {
    const key = await deps.auth.verifyPrivateMapKey(target.sdkAppId, visitor.userId, privateMapKey, { roomId: target.roomId, useStringRoomId: target.isString });
    if (!key.ok) return { ok: false, why: `privateMapKey refused (${key.code})` };
    if (!hasPrivilege(key.privileges, PRIVILEGE.ENTER_ROOM)) return { ok: false, why: 'privateMapKey does not grant entering the room' };
    privileges &= key.privileges;
  } else if (deps.auth.app(target.sdkAppId)?.requirePrivateMapKey) {
    return { ok: false, why: 'the app requires a privateMapKey for the room' };
  }
  if (deps.bans.find(target.sdkAppId, target.ref, visitor.userId)) return { ok: false, why: 'banned from the room' };
  return { ok: true, privileges };
}

/** Why `anchor` may not be seen in `room` (banned from it, or no place for a visitor there), or undefined. */
export function visitRefusal(deps: VisitDeps, anchor: Participant, room: Room): string | undefined {
  if (deps.bans.find(room.sdkAppId, room.ref, anchor.userId)) return `${anchor.userId} is banned from room ${room.key}`;
  const full = visitorRefusal(room, deps.limits);
  return full === undefined ? undefined : `room ${room.key}: ${full}`;
}
