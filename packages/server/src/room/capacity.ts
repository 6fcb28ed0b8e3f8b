import { ROLE_CODE, SCENE_CODE, SERVER_CODE, type RoleCode, type SceneCode } from '@conclave/protocol';
import type { LimitsConfig } from '../config/config.js';
import type { Room } from './room.js';

/**
 * Why `userId` cannot be in `room` with `role` (the room's limits: users in rtc, anchors and audience in
 * live), or undefined when there is room. The user's own current place does not count.
 */
export function capacityRefusal(room: Room | undefined, scene: SceneCode, role: RoleCode, userId: string, limits: LimitsConfig): { code: number; message: string } | undefined {
  if (!room) return undefined;
  const self = room.get(userId);
  if (scene === SCENE_CODE.rtc) {
    const others = room.size - (self ? 1 : 0);
    return others >= limits.usersPerRoom ? { code: SERVER_CODE.ROOM_FULL, message: `room is full (${limits.usersPerRoom} users)` } : undefined;
  }
  const counts = room.roleCounts();
  if (self?.role === ROLE_CODE.audience) counts.audience--;
  else if (self) counts.anchors--;
  if (role === ROLE_CODE.anchor && counts.anchors >= limits.anchorsPerLiveRoom) {
    return { code: SERVER_CODE.TOO_MANY_ANCHORS, message: `the live room has its maximum of ${limits.anchorsPerLiveRoom} anchors; join as audience` };
  }
  if (role === ROLE_CODE.audience && counts.audience >= limits.audiencePerLiveRoom) {
    return { code: SERVER_CODE.ROOM_FULL, message: `room is full (${limits.audiencePerLiveRoom} audience)` };
  }
  return undefined;
}

/**
 * Why `room` has no place for one more visiting anchor (a cross-room link, docs/behaviour.md §7.6), or undefined.
 * A visitor is an anchor there: with its other visitors it counts against the live limit of anchors in a room
 * that has an audience (a live room; a room does not keep its scene, its sessions do) and against the users of
 * an rtc room otherwise.
 */
export function visitorRefusal(room: Room, limits: LimitsConfig): string | undefined {
  const { anchors, audience } = room.roleCounts();
  if (audience > 0) return anchors + room.visitors.size >= limits.anchorsPerLiveRoom ? `the live room has its ${limits.anchorsPerLiveRoom} anchors` : undefined;
  return room.size + room.visitors.size >= limits.usersPerRoom ? `the room has its ${limits.usersPerRoom} users` : undefined;
}
