import type { LeaveReason, RoleCode } from '@conclave/protocol';
import { FLAG } from '@conclave/protocol';
import type { RoomRef } from '../ids/room-ref.js';
import type { ClientInfo } from './participant.js';

/** The media a user can start and stop sending (each its own callback event). */
export type MediaKind = 'video' | 'audio' | 'sub';

/** Where a room event happened: the app and the room. */
export interface RoomEventPlace {
  sdkAppId: number;
  /** The room's key (`${sdkAppId}:${i|s}:${roomId}`): events of one key are delivered in order. */
  roomKey: string;
  ref: RoomRef;
  /** ms since the epoch. */
  at: number;
}

/**
 * What happens in rooms, for whoever records or reports it (event callbacks, call records): the domain
 * tells, it does not know who listens.
 */
export type RoomEvent = RoomEventPlace & (
  | { type: 'room-created' }
  | { type: 'room-dismissed' }
  | { type: 'user-entered'; userId: string; role: RoleCode; client?: ClientInfo }
  | { type: 'user-left'; userId: string; role: RoleCode; reason: LeaveReason }
  | { type: 'role-changed'; userId: string; role: RoleCode }
  /** `mute`: the change is a mute or an unmute (the stream stays published). */
  | { type: 'media-started' | 'media-stopped'; userId: string; media: MediaKind; mute?: true }
);

export type RoomEventListener = (event: RoomEvent) => void;

/** Fans room events out to listeners; a listener that throws is reported to `onListenerError`, never to the room. */
export class RoomEvents {
  readonly #listeners = new Set<RoomEventListener>();
  #onListenerError: (error: unknown, event: RoomEvent) => void = () => undefined;

  /** Adds a listener; returns the function that removes it. */
  on(listener: RoomEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Where a throwing listener's error goes (the server logs it). */
  onListenerError(handler: (error: unknown, event: RoomEvent) => void): void {
    this.#onListenerError = handler;
  }

  emit(event: RoomEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error, event);
      }
    }
  }
}

/** The media a publish flag says is published but muted. */
export function mutedMedia(flag: number): Set<MediaKind> {
  const muted = new Set<MediaKind>();
  if ((flag & FLAG.VIDEO) !== 0 && (flag & FLAG.VIDEO_MUTE) !== 0) muted.add('video');
  if ((flag & FLAG.AUDIO) !== 0 && (flag & FLAG.AUDIO_MUTE) !== 0) muted.add('audio');
  if ((flag & FLAG.AUX) !== 0 && (flag & FLAG.AUX_MUTE) !== 0) muted.add('sub');
  return muted;
}

/** The media a publish flag says is being sent (published and not muted). */
export function sendingMedia(flag: number): Set<MediaKind> {
  const sending = new Set<MediaKind>();
  if ((flag & FLAG.VIDEO) !== 0 && (flag & FLAG.VIDEO_MUTE) === 0) sending.add('video');
  if ((flag & FLAG.AUDIO) !== 0 && (flag & FLAG.AUDIO_MUTE) === 0) sending.add('audio');
  if ((flag & FLAG.AUX) !== 0 && (flag & FLAG.AUX_MUTE) === 0) sending.add('sub');
  return sending;
}
