import type { MessageKey } from './i18n';
/** The room to enter: a numeric `roomId` or a string `strRoomId`, as in `enterRoom`. */
export type RoomRef =
  | { readonly kind: 'number'; readonly roomId: number }
  | { readonly kind: 'string'; readonly strRoomId: string };

/** Everything `enterRoom` needs, plus what to publish once inside. */
export interface JoinParams {
  readonly sdkAppId: number;
  readonly userId: string;
  readonly userSig: string;
  readonly room: RoomRef;
  readonly camera: boolean;
  readonly mic: boolean;
  /** 'live': anchors publish, the audience only watches; 'rtc': everyone may publish. */
  readonly scene: Scene;
  /** Only used in the live scene. */
  readonly role: Role;
  /** Devices picked on the pre-join screen ('' = the browser's default). */
  readonly devices?: DeviceChoice;
}

export interface DeviceChoice {
  readonly cameraId: string;
  readonly microphoneId: string;
  readonly speakerId: string;
}

export type Scene = 'rtc' | 'live';
export type Role = 'anchor' | 'audience';

/** The join form's fields, kept as typed text so that editing never loses input. */
export interface FormValues {
  readonly sdkAppId: string;
  readonly userId: string;
  readonly roomMode: 'number' | 'string';
  readonly roomId: string;
  readonly strRoomId: string;
  readonly userSig: string;
  readonly camera: boolean;
  readonly mic: boolean;
  readonly scene: Scene;
  readonly role: Role;
}

export const DEFAULT_ROOM_ID = '8888';
/** Largest numeric room id the TRTC API accepts. */
export const MAX_ROOM_ID = 4294967294;

export function randomUserId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  let suffix = '';
  for (const byte of bytes) suffix += alphabet[byte % alphabet.length];
  return `user_${suffix}`;
}

export function roomLabel(room: RoomRef): string {
  return room.kind === 'number' ? String(room.roomId) : room.strRoomId;
}

/** Prefill from the page URL. */
export interface UrlPrefill {
  readonly values: FormValues;
  /** `autojoin=1`: join as soon as a userSig is at hand. */
  readonly autoJoin: boolean;
  /** Whether the URL named an sdkAppId (then dev mode must not overwrite it). */
  readonly hasSdkAppId: boolean;
}

function flag(value: string | null, fallback: boolean): boolean {
  if (value === null) return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/**
 * Reads `?sdkAppId=&userId=&roomId=&strRoomId=&userSig=&camera=0&mic=0&scene=live&role=audience&autojoin=1`.
 * A non-numeric `roomId` is taken as a string room id.
 */
export function readUrlPrefill(search: string): UrlPrefill {
  const query = new URLSearchParams(search);
  const sdkAppId = query.get('sdkAppId')?.trim() ?? '';
  const roomIdParam = query.get('roomId')?.trim() ?? '';
  const strRoomIdParam = query.get('strRoomId')?.trim() ?? '';

  let roomMode: FormValues['roomMode'] = 'number';
  let roomId = DEFAULT_ROOM_ID;
  let strRoomId = '';
  if (strRoomIdParam !== '') {
    roomMode = 'string';
    strRoomId = strRoomIdParam;
  } else if (/^\d+$/.test(roomIdParam)) {
    roomId = roomIdParam;
  } else if (roomIdParam !== '') {
    roomMode = 'string';
    strRoomId = roomIdParam;
  }

  return {
    values: {
      sdkAppId,
      userId: query.get('userId')?.trim() || randomUserId(),
      roomMode,
      roomId,
      strRoomId,
      userSig: query.get('userSig')?.trim() ?? '',
      camera: flag(query.get('camera'), true),
      mic: flag(query.get('mic'), true),
      scene: query.get('scene') === 'live' ? 'live' : 'rtc',
      role: query.get('role') === 'audience' ? 'audience' : 'anchor',
    },
    autoJoin: flag(query.get('autojoin'), false),
    hasSdkAppId: sdkAppId !== '',
  };
}

/** A link that opens this demo on the same room and joins it (with a fresh userId). */
export function inviteLink(sdkAppId: number, room: RoomRef, location: Location = window.location, scene: Scene = 'rtc'): string {
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set('sdkAppId', String(sdkAppId));
  if (scene === 'live') url.searchParams.set('scene', 'live');
  if (room.kind === 'number') url.searchParams.set('roomId', String(room.roomId));
  else url.searchParams.set('strRoomId', room.strRoomId);
  url.searchParams.set('autojoin', '1');
  return url.toString();
}

export type FieldName = 'sdkAppId' | 'userId' | 'roomId' | 'userSig';

export interface ValidationError {
  readonly field: FieldName;
  /** What is wrong, a key of the message table (i18n.ts) with its `{names}`. */
  readonly message: MessageKey;
  readonly vars?: Readonly<Record<string, string | number>>;
}

/** Checks the form; `userSig` is not checked here since dev mode makes it. */
export function validateForm(
  values: FormValues,
): { ok: true; sdkAppId: number; userId: string; room: RoomRef } | { ok: false; error: ValidationError } {
  const sdkAppIdText = values.sdkAppId.trim();
  const sdkAppId = Number(sdkAppIdText);
  if (!/^\d+$/.test(sdkAppIdText) || !Number.isSafeInteger(sdkAppId) || sdkAppId <= 0) {
    return { ok: false, error: { field: 'sdkAppId', message: 'invalid.sdkAppId' } };
  }
  const userId = values.userId.trim();
  if (userId === '') {
    return { ok: false, error: { field: 'userId', message: 'invalid.userId' } };
  }
  if (values.roomMode === 'number') {
    const text = values.roomId.trim();
    const roomId = Number(text);
    if (!/^\d+$/.test(text) || roomId < 1 || roomId > MAX_ROOM_ID) {
      return {
        ok: false,
        error: { field: 'roomId', message: 'invalid.roomId', vars: { max: MAX_ROOM_ID } },
      };
    }
    return { ok: true, sdkAppId, userId, room: { kind: 'number', roomId } };
  }
  const strRoomId = values.strRoomId.trim();
  if (strRoomId === '') {
    return { ok: false, error: { field: 'roomId', message: 'invalid.roomName' } };
  }
  return { ok: true, sdkAppId, userId, room: { kind: 'string', strRoomId } };
}
