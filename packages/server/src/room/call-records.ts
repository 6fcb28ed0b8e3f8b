import { parseRoomRef } from '../ids/room-ref.js';
import type { CallRecordStore, UserEventRecord } from '../store/call-record-store.js';
import type { RoomEvent, RoomEvents } from './room-events.js';

/** How long call records are kept (as the API: 14 days of history). */
export const CALL_RECORD_RETENTION_DAYS = 14;

/** The call id of a room session, as TRTC forms it: `${sdkAppId}_${roomId}_${created, unix seconds}`. */
export function commId(sdkAppId: number, ref: string, createdAt: number): string {
  return `${sdkAppId}_${parseRoomRef(ref)?.roomId ?? ref}_${Math.floor(createdAt / 1000)}`;
}

/**
 * Keeps the call records (room sessions, users' visits and their events) from the rooms' events. Sessions a previous run
 * left open are closed first: a stopped server ended its rooms. Returns the function that stops recording.
 */
export function recordCalls(events: RoomEvents, records: CallRecordStore, now = Date.now()): () => void {
  records.closeOpen(now);
  const live = new Map<string, string>();
  return events.on((event) => {
    if (event.type === 'room-created') {
      const id = commId(event.sdkAppId, event.ref, event.at);
      live.set(event.roomKey, id);
      records.roomCreated(id, event.sdkAppId, event.ref, event.at);
      return;
    }
    const id = live.get(event.roomKey);
    if (id === undefined) return;
    if (event.type === 'user-entered') {
      records.userEntered(id, {
        userId: event.userId, joinedAt: event.at,
        sdkVersion: event.client?.sdkVersion ?? null, terminalType: event.client?.terminalType ?? null, clientIp: event.client?.address ?? null,
      });
    } else if (event.type === 'user-left') {
      records.userLeft(id, event.userId, event.at);
    } else if (event.type === 'room-dismissed') {
      records.roomDestroyed(id, event.at);
      live.delete(event.roomKey);
    }
    for (const userEvent of userEventsOf(event)) records.userEvent(id, userEvent);
  });
}

/**
 * A room event as the users' events it records (DescribeUserEvent): entering (with the role), leaving (with
 * the reason; a time-out is the user's network lost first), role changes, and media started, stopped, muted
 * and unmuted.
 */
function userEventsOf(event: RoomEvent): UserEventRecord[] {
  const at = event.at;
  switch (event.type) {
    case 'user-entered': return [{ userId: event.userId, at, kind: 'entered', media: null, detail: String(event.role) }];
    case 'role-changed': return [{ userId: event.userId, at, kind: 'role-changed', media: null, detail: String(event.role) }];
    case 'user-left': return [
      ...(event.reason === 'timeout' ? [{ userId: event.userId, at, kind: 'network-lost' as const, media: null, detail: null }] : []),
      { userId: event.userId, at, kind: 'left', media: null, detail: event.reason },
    ];
    case 'media-started': return [{ userId: event.userId, at, kind: event.mute ? 'unmuted' : 'started', media: event.media, detail: null }];
    case 'media-stopped': return [{ userId: event.userId, at, kind: event.mute ? 'muted' : 'stopped', media: event.media, detail: null }];
    default: return [];
  }
}
