import { evictParticipant, type LeaveDeps } from '../room/eviction.js';
import { RoomRegistry, type Room } from '../room/room.js';
import type { ActionHandler, ActionInput } from './action.js';
import { CloudApiError } from './cloud-api-error.js';
import { intRoomId, sdkAppId, strRoomId, userIds, type Params } from './params.js';

/** The room control actions: DismissRoom[ByStrRoomId], RemoveUser[ByStrRoomId]. */
export type RoomActionName = 'DismissRoom' | 'DismissRoomByStrRoomId' | 'RemoveUser' | 'RemoveUserByStrRoomId';

function roomOf(deps: LeaveDeps, input: ActionInput, roomId: string, isString: boolean): Room {
  const room = deps.rooms.find(RoomRegistry.key(sdkAppId(input.params, input.app.sdkAppId), roomId, isString));
  if (!room) throw new CloudApiError('FailedOperation.RoomNotExist', `room ${roomId} does not exist (nobody is in it)`);
  return room;
}

/** Everyone leaves; each client gets `kicked-out` with reason `room_disband`. */
function dismiss(deps: LeaveDeps, readRoomId: (params: Params) => string, isString: boolean): ActionHandler {
  return (input) => {
    const room = roomOf(deps, input, readRoomId(input.params), isString);
    const users = [...room.participants()];
    for (const user of users) evictParticipant(deps, room, user, { reason: 'room_disband', message: 'the room was dismissed through the cloud API' });
    input.audit(room.ref, '', `room dismissed (${users.length} users)`);
    return {};
  };
}

/**
 * The named users leave; each gets `kicked-out` with reason `kick` and may join again. Names not in the room
 * are skipped; when none of them is there the call fails with FailedOperation.UserNotExist and changes nothing.
 */
function remove(deps: LeaveDeps, readRoomId: (params: Params) => string, isString: boolean): ActionHandler {
  return (input) => {
    const ids = userIds(input.params);
    const room = roomOf(deps, input, readRoomId(input.params), isString);
    const present = ids.flatMap((id) => room.get(id) ?? []);
    if (present.length === 0) throw new CloudApiError('FailedOperation.UserNotExist', `none of ${ids.join(', ')} is in room ${room.ref}`);
    for (const user of present) {
      evictParticipant(deps, room, user, { reason: 'kick', message: 'removed from the room through the cloud API' });
      input.audit(room.ref, user.userId, 'removed');
    }
    return {};
  };
}

/** The room control handlers, working on this server's rooms. */
export function roomActions(deps: LeaveDeps): Record<RoomActionName, ActionHandler> {
  return {
    DismissRoom: dismiss(deps, intRoomId, false),
    DismissRoomByStrRoomId: dismiss(deps, (params) => strRoomId(params), true),
    RemoveUser: remove(deps, intRoomId, false),
    RemoveUserByStrRoomId: remove(deps, (params) => strRoomId(params), true),
  };
}
