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
