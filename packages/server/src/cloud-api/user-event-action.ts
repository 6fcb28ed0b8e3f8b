import type { LeaveReason } from '@conclave/protocol';
import { CALL_RECORD_RETENTION_DAYS } from '../room/call-records.js';
import type { CallRecordStore, UserEventRecord } from '../store/call-record-store.js';
import type { ActionHandler } from './action.js';
import { CloudApiError, invalid } from './cloud-api-error.js';
import { sdkAppId, text, type Params } from './params.js';

/** One event as DescribeUserEvent answers it (the API's EventMessage). */
interface EventMessage {
  /** 0: not about video; 2: the big (main) picture. */
  Type: number;
  /** ms since the epoch. */
  Time: number;
  EventId: number;
  ParamOne: number;
  ParamTwo: number;
}

/** The exit reasons, as the exit callback (104) gives them: 1 left, 2 timed out, 3 removed from the room. */
const EXIT_REASON: Record<LeaveReason, number> = { normal: 1, timeout: 2, kick: 3, 'role change': 1 };

/**
 * The vendor's event ids (its "Event ID Mapping Table") for what the server sees: 3001 the microphone (0
 * started, 1 muted, 2 stopped, 3 unmuted), 4006 the camera's video (2 camera on, 3 camera off, 1 paused, 0
 * published again), 1003 with 0 the user's network lost. Entering, leaving, role changes and the sub stream
 * have no id this server could confirm in that table: they carry the event type of the matching room or media
 * callback (103 enter with the role, 104 exit with its reason, 105 role change with the role, 205 / 206 sub
 * stream started / stopped, ParamOne 1 for an unmute / a mute).
 */
function eventMessage(event: UserEventRecord): EventMessage {
  const at = { Time: event.at, ParamTwo: -1 };
  const plain = (EventId: number, ParamOne: number, Type = 0): EventMessage => ({ ...at, Type, EventId, ParamOne });
  const media = { started: { audio: 0, video: 2, sub: 0 }, stopped: { audio: 2, video: 3, sub: 0 }, muted: { audio: 1, video: 1, sub: 1 }, unmuted: { audio: 3, video: 0, sub: 1 } };
  switch (event.kind) {
    case 'entered': return plain(103, Number(event.detail));
    case 'left': return plain(104, EXIT_REASON[event.detail as LeaveReason] ?? 1);
    case 'role-changed': return plain(105, Number(event.detail));
    case 'network-lost': return plain(1003, 0);
    default: {
      const param = media[event.kind][event.media as 'audio' | 'video' | 'sub'];
      if (event.media === 'audio') return plain(3001, param);
      if (event.media === 'video') return plain(4006, param, 2);
      return plain(event.kind === 'started' || event.kind === 'unmuted' ? 205 : 206, param);
    }
  }
}

const UNIX_MAX = 0xffffffff;

/** StartTime or EndTime (unix seconds), in the codes this action answers with (…StartTs, …EndTs). */
function timestamp(params: Params, name: 'StartTime' | 'EndTime'): number {
  const code = name === 'StartTime' ? 'StartTs' : 'EndTs';
  const value = params[name];
  if (value === undefined || value === null) throw new CloudApiError(`MissingParameter.${code}`, `the parameter ${name} is required`);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > UNIX_MAX) throw invalid(code, `(${name}) must be a unix time in seconds`);
  return value;
}

/**
 * DescribeUserEvent: one user's events in one room session (CommId), from the call records this node keeps.
 * RoomId must name the CommId's room; EndTime past the room's end is the room's end (nothing happens after it).
 */
export function describeUserEvent(records: CallRecordStore): ActionHandler {
  return (input) => {
    const app = sdkAppId(input.params, input.app.sdkAppId);
    const commId = text(input.params, 'CommId', 256);
    const userId = text(input.params, 'UserId', 256);
    const roomId = input.params.RoomId;
    if (roomId === undefined || roomId === null || roomId === '') throw new CloudApiError('MissingParameter.RoomId', 'the parameter RoomId is required');
    if ((typeof roomId !== 'string' && typeof roomId !== 'number') || commId.split('_').slice(1, -1).join('_') !== String(roomId)) {
      throw new CloudApiError('InvalidParameter', `RoomId ${String(roomId)} is not the room of CommId ${commId}`);
    }
    const start = timestamp(input.params, 'StartTime');
    const end = timestamp(input.params, 'EndTime');
    if (end <= start) throw invalid('EndTs', '(EndTime) must be after StartTime');
    if (start < Date.now() / 1000 - CALL_RECORD_RETENTION_DAYS * 24 * 3600) {
      throw new CloudApiError('InvalidParameter.StartTsOversize', `call records are kept ${CALL_RECORD_RETENTION_DAYS} days: StartTime is older`);
    }
    const events = records.userEvents({ sdkAppId: app, commId, userId, from: start * 1000, to: end * 1000 + 999 });
    return { Data: events.length === 0 ? [] : [{ PeerId: userId, Content: events.map(eventMessage) }] };
  };
}
