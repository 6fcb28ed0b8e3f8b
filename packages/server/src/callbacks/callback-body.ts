import type { LeaveReason } from '@conclave/protocol';
import { parseRoomRef } from '../ids/room-ref.js';
import type { RecordingEvent } from '../recording/recording-manager.js';
import type { MediaKind, RoomEvent } from '../room/room-events.js';

/** TRTC's callback event groups (docs/behaviour.md §11). */
export const EVENT_GROUP = Object.freeze({ room: 1, media: 2, recording: 3 } as const);

/** TRTC's cloud recording events sent here: the recorder started, stopped, and an MP4 task's files are final. */
export const RECORDING_EVENT_TYPE = Object.freeze({ recorderStart: 301, recorderStop: 302, mp4Stop: 310 } as const);

/** TRTC's callback event types of the room and media groups. */
export const EVENT_TYPE = Object.freeze({
  createRoom: 101, dismissRoom: 102, enterRoom: 103, exitRoom: 104, changeRole: 105,
  startVideo: 201, stopVideo: 202, startAudio: 203, stopAudio: 204, startSubStream: 205, stopSubStream: 206,
} as const);

/** A callback's body before it is sent (CallbackTs is stamped at each attempt). */
export interface CallbackEvent {
  EventGroupId: number;
  EventType: number;
  EventInfo: Record<string, unknown>;
}

/** The exit reasons of event 104: 1 left, 2 timed out, 3 removed from the room. */
const EXIT_REASON: Record<LeaveReason, number> = { normal: 1, timeout: 2, kick: 3, 'role change': 1 };

const MEDIA_TYPE: Record<MediaKind, { started: number; stopped: number }> = {
  video: { started: EVENT_TYPE.startVideo, stopped: EVENT_TYPE.stopVideo },
  audio: { started: EVENT_TYPE.startAudio, stopped: EVENT_TYPE.stopAudio },
  sub: { started: EVENT_TYPE.startSubStream, stopped: EVENT_TYPE.stopSubStream },
};

/**
 * The TRTC callback of a room event: RoomId is a number for a numeric room and a string for a string room, as
 * the original sends it; EventTs in seconds and EventMsTs in ms. TerminalType and UserType are not sent: the
 * server does not know them.
 */
export function callbackEvent(event: RoomEvent): CallbackEvent {
  const info = eventInfo(event.ref, event.at);
  switch (event.type) {
    case 'room-created': return { EventGroupId: EVENT_GROUP.room, EventType: EVENT_TYPE.createRoom, EventInfo: info };
    case 'room-dismissed': return { EventGroupId: EVENT_GROUP.room, EventType: EVENT_TYPE.dismissRoom, EventInfo: info };
    case 'user-entered':
      return { EventGroupId: EVENT_GROUP.room, EventType: EVENT_TYPE.enterRoom, EventInfo: { ...info, UserId: event.userId, Role: event.role, Reason: 1 } };
    case 'user-left':
      return { EventGroupId: EVENT_GROUP.room, EventType: EVENT_TYPE.exitRoom, EventInfo: { ...info, UserId: event.userId, Role: event.role, Reason: EXIT_REASON[event.reason] } };
    case 'role-changed':
      return { EventGroupId: EVENT_GROUP.room, EventType: EVENT_TYPE.changeRole, EventInfo: { ...info, UserId: event.userId, Role: event.role } };
    case 'media-started':
    case 'media-stopped': {
      const types = MEDIA_TYPE[event.media];
      return { EventGroupId: EVENT_GROUP.media, EventType: event.type === 'media-started' ? types.started : types.stopped, EventInfo: { ...info, UserId: event.userId } };
    }
  }
}

/** The fields every EventInfo has: RoomId (a number for a numeric room, a string for a string room) and the time. */
function eventInfo(roomRef: string, at: number): Record<string, string | number> {
  const ref = parseRoomRef(roomRef);
  return { RoomId: ref && !ref.isString ? Number(ref.roomId) : (ref?.roomId ?? roomRef), EventTs: Math.floor(at / 1000), EventMsTs: at };
}

/**
 * The TRTC cloud recording callbacks of a recording: 301 when it starts; when it ends, 310 with its MP4 files
 * (FileName is the admin API's recordingId: GET /admin/v1/apps/{sdkAppId}/recordings/{FileName} downloads it), then
 * 302. TaskId is the recording's task (the cloud API's TaskId, a userDefineRecordId, or the room). No robot joins
 * here: UserId is empty.
 */
export function recordingCallbacks(event: RecordingEvent): CallbackEvent[] {
  const info = { ...eventInfo(event.roomRef, event.at), UserId: '', TaskId: event.recordId };
  const group = EVENT_GROUP.recording;
  if (event.type === 'started') return [{ EventGroupId: group, EventType: RECORDING_EVENT_TYPE.recorderStart, EventInfo: { ...info, Payload: { Status: 0 } } }];
  const files = event.files.map((file) => ({
    FileName: file.recordingId, UserId: file.userId ?? '', TrackType: 'audio_video', MediaId: file.kind === 'mixed' ? 'mix' : 'main',
    StartTimeStamp: Date.parse(file.startedAt), EndTimeStamp: event.at,
  }));
  return [
    { EventGroupId: group, EventType: RECORDING_EVENT_TYPE.mp4Stop, EventInfo: { ...info, Payload: { Status: 0, FileList: files.map((f) => f.FileName), FileMessage: files } } },
    { EventGroupId: group, EventType: RECORDING_EVENT_TYPE.recorderStop, EventInfo: { ...info, Payload: { LeaveCode: 0 } } },
  ];
}
