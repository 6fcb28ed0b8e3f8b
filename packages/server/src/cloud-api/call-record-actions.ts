import { LIMITS } from '@conclave/protocol';
import { roomRef } from '../ids/room-ref.js';
import { CALL_RECORD_RETENTION_DAYS } from '../room/call-records.js';
import type { CallRecordStore } from '../store/call-record-store.js';
import type { ActionHandler, ActionInput, ActionResult } from './action.js';
import { CloudApiError, invalid } from './cloud-api-error.js';
import { integer, sdkAppId, text, type Params } from './params.js';
import { describeUserEvent } from './user-event-action.js';

/** The call-record actions answered from the store: DescribeRoomInfo, DescribeUserInfo, DescribeCallDetailInfo's user list and DescribeUserEvent. */
export type CallRecordActionName = 'DescribeRoomInfo' | 'DescribeUserInfo' | 'DescribeCallDetailInfo' | 'DescribeUserEvent';

const HOUR_S = 3600;
const UNIX_MAX = 0xffffffff;

/** StartTime and EndTime (unix seconds): EndTime after StartTime, at most `maxSpanS` apart, StartTime within the retention. */
function timeRange(params: Params, maxSpanS: number): { from: number; to: number } {
  const start = integer(params, 'StartTime', 0, UNIX_MAX);
  const end = integer(params, 'EndTime', 0, UNIX_MAX);
  if (end <= start) throw invalid('EndTime', 'must be after StartTime');
  if (end - start > maxSpanS) throw new CloudApiError('InvalidParameter.QueryScaleOversize', `EndTime may be at most ${maxSpanS / HOUR_S} hours after StartTime`);
  if (start < Date.now() / 1000 - CALL_RECORD_RETENTION_DAYS * 24 * HOUR_S) {
    throw new CloudApiError('InvalidParameter.StartTsOversize', `call records are kept ${CALL_RECORD_RETENTION_DAYS} days: StartTime is older`);
  }
  return { from: start * 1000, to: end * 1000 };
}

/** PageNumber (from 0) and PageSize (1 to 100); when either is absent, the first page of `fallback`. */
function page(params: Params, fallback: number): { offset: number; limit: number } {
  if (params.PageNumber === undefined || params.PageSize === undefined) return { offset: 0, limit: fallback };
  const number = integer(params, 'PageNumber', 0, 1_000_000);
  const size = integer(params, 'PageSize', 1, 100);
  return { offset: number * size, limit: size };
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The visits to one room session (CommId) in a range of at most `maxSpanS`, as the API's UserInformation list. */
function usersOf(records: CallRecordStore, input: ActionInput, maxSpanS: number): ActionResult {
  const app = sdkAppId(input.params, input.app.sdkAppId);
  const commId = text(input.params, 'CommId', 256);
  const range = timeRange(input.params, maxSpanS);
  const ids = input.params.UserIds;
  if (ids !== undefined && (!Array.isArray(ids) || ids.length < 1 || ids.length > 100 || !ids.every((id) => typeof id === 'string' && id.length > 0))) {
    throw invalid('UserIds', 'must be an array of 1 to 100 user ids');
  }
  const found = records.users({ sdkAppId: app, commId, ...range, ...(ids ? { userIds: ids as string[] } : {}), ...page(input.params, 6) });
  const room = commId.split('_').slice(1, -1).join('_');
  return {
    Total: found.total,
    UserList: found.items.map((user) => ({
      RoomStr: room,
      UserId: user.userId,
      JoinTs: seconds(user.joinedAt),
      // Still in the room: the current time, as the API answers.
      LeaveTs: seconds(user.leftAt ?? Date.now()),
      DeviceType: 'Web',
      SdkVersion: user.sdkVersion ?? '',
      ClientIp: user.clientIp ?? '',
      Finished: user.leftAt !== null,
    })),
  };
}

/** The call-record handlers, reading the store's records of this node's rooms. */
export function callRecordActions(records: CallRecordStore): Record<CallRecordActionName, ActionHandler> {
  return {
    DescribeRoomInfo: (input) => {
      const app = sdkAppId(input.params, input.app.sdkAppId);
      const range = timeRange(input.params, 24 * HOUR_S);
      const roomId = input.params.RoomId === undefined ? undefined : text(input.params, 'RoomId', LIMITS.MAX_STR_ROOM_ID_LENGTH);
      // A numeric RoomId names the numeric room; any other names the string room of that name.
      const ref = roomId === undefined ? undefined : roomRef(roomId, !/^\d{1,10}$/.test(roomId));
      const found = records.rooms({ sdkAppId: app, ...range, ...(ref === undefined ? {} : { roomRef: ref }), ...page(input.params, 10) });
      return {
        Total: found.total,
        RoomList: found.items.map((room) => ({
          CommId: room.commId,
          RoomString: room.roomRef.startsWith('s:') ? room.roomRef.slice(2) : room.roomRef,
          CreateTime: seconds(room.createdAt),
          DestroyTime: room.destroyedAt === null ? 0 : seconds(room.destroyedAt),
          IsFinished: room.destroyedAt !== null,
          UserId: room.creator ?? '',
        })),
      };
    },
    DescribeUserInfo: (input) => usersOf(records, input, 4 * HOUR_S),
    // Without DataType the API answers the user list alone; the quality series (DataType) are not stored here.
    DescribeCallDetailInfo: (input) => {
      if (input.params.DataType !== undefined && input.params.DataType !== null) {
        throw invalid('DataType', 'names quality series, which this server does not store: leave it out for the user list');
      }
      return usersOf(records, input, HOUR_S);
    },
    DescribeUserEvent: describeUserEvent(records),
  };
}
