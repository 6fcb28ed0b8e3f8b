/**
 * privateMapKey: a userSig whose `TLS.userbuf` grants room-level privileges (which room, which actions, until
 * when), in the binary layout of TLSSigAPIv2's `_genUserbuf`.
 *
 * Userbuf layout (all integers big-endian):
 *
 * | bytes | field |
 * |---|---|
 * | 1 | version: 0 for a numeric room id, 1 for a string room id |
 * | 2 | account (userId) length N |
 * | N | account bytes |
 * | 4 | sdkAppId |
 * | 4 | numeric room id (0 when a string room id is used) |
 * | 4 | expire time: absolute, seconds since the epoch (`now + expire`) |
 * | 4 | privilege map (see {@link PRIVILEGE}) |
 * | 4 | account type (always 0) |
 * | 2 | version 1 only: string room id length M |
 * | M | version 1 only: string room id bytes |
 *
 * Strings are written as UTF-8; the original tool writes `charCodeAt` values, which is the same for ASCII
 * (the only characters Tencent allows in userIds and room ids).
 */
import { UserSigError } from './errors.js';
import { DEFAULT_EXPIRE, genUserSig } from './usersig.js';
import { checkString, checkUint, resolveNow, UINT32_MAX } from './validate.js';

/** Privilege bits of a privateMapKey's privilege map. Combine with `|`. */
export const PRIVILEGE = Object.freeze({
  /** Bit 0: may create the room. */
  CREATE_ROOM: 1,
  /** Bit 1: may enter the room. */
  ENTER_ROOM: 2,
  /** Bit 2: may send audio. */
  SEND_AUDIO: 4,
  /** Bit 3: may receive audio. */
  RECV_AUDIO: 8,
  /** Bit 4: may send (main) video. */
  SEND_VIDEO: 16,
  /** Bit 5: may receive (main) video. */
  RECV_VIDEO: 32,
  /** Bit 6: may send sub-stream (screen share) video. */
  SEND_SUB_VIDEO: 64,
  /** Bit 7: may receive sub-stream (screen share) video. */
  RECV_SUB_VIDEO: 128,
  /** All of the above. */
  ALL: 255,
});

/** The name of a privilege bit. */
export type PrivilegeName = keyof typeof PRIVILEGE;

/**
 * Whether `privilegeMap` grants every bit in `bits`.
 * @param privilegeMap - the privilege map from a privateMapKey
 * @param bits - one or more {@link PRIVILEGE} bits, combined with `|`
 * @returns true when all the bits are set
 */
export function hasPrivilege(privilegeMap: number, bits: number): boolean {
  return ((privilegeMap & bits) >>> 0) === bits >>> 0;
}

/** The decoded userbuf of a privateMapKey. */
export interface PrivateMapKeyInfo {
  /** 0 for a numeric room id, 1 for a string room id. */
  version: number;
  /** The account (userId) the key is for. */
  userId: string;
  /** The application id. */
  sdkAppId: number;
  /** The numeric room id (0 when the key is for a string room id). */
  roomId: number;
  /** The string room id ('' when the key is for a numeric room id). */
  strRoomId: string;
  /** When the privileges end: absolute, seconds since the Unix epoch. */
  expireTime: number;
  /** Granted privileges: a combination of {@link PRIVILEGE} bits. */
  privilegeMap: number;
  /** Account type; the original tool always writes 0. */
  accountType: number;
}

/** Options shared by {@link genPrivateMapKey} and {@link genPrivateMapKeyWithStringRoomID}. */
export interface GenPrivateMapKeyBaseOptions {
  /** The application id (an unsigned 32-bit integer). */
  sdkAppId: number;
  /** The application's secret key. Must not be empty. */
  secretKey: string;
  /** The user the key is for. Must not be empty. */
  userId: string;
  /** Granted privileges: a combination of {@link PRIVILEGE} bits (an unsigned 32-bit integer). */
  privilegeMap: number;
  /** Lifetime in seconds from `now`. Default 604800 (7 days). `now + expire` must fit in 32 bits. */
  expire?: number;
  /** The current time in seconds since the Unix epoch. Default `Math.floor(Date.now() / 1000)`. */
  now?: number;
}

/** Options for {@link genPrivateMapKey}. */
export interface GenPrivateMapKeyOptions extends GenPrivateMapKeyBaseOptions {
  /** The numeric room id (an unsigned 32-bit integer). */
  roomId: number;
}

/** Options for {@link genPrivateMapKeyWithStringRoomID}. */
export interface GenPrivateMapKeyWithStringRoomIDOptions extends GenPrivateMapKeyBaseOptions {
  /** The string room id. */
  strRoomId: string;
}

const MAX_STRING_BYTES = 0xffff;
const encoder = new TextEncoder();

/**
 * Builds a privateMapKey userbuf (TLSSigAPIv2 `_genUserbuf`).
 * @param info - the fields to pack; `version` is 1 exactly when `strRoomId` is given
 * @returns the binary userbuf
 * @throws RangeError when a string is longer than 65535 bytes or a number does not fit in 32 bits
 */
export function buildPrivateMapKeyUserBuf(info: {
  userId: string;
  sdkAppId: number;
  roomId: number;
  expireTime: number;
  privilegeMap: number;
  accountType?: number;
  strRoomId?: string;
}): Uint8Array {
  const account = encoder.encode(info.userId);
  const room = info.strRoomId === undefined ? undefined : encoder.encode(info.strRoomId);
  if (account.length > MAX_STRING_BYTES) throw new RangeError('userId must be at most 65535 bytes of UTF-8');
  if (room && room.length > MAX_STRING_BYTES) throw new RangeError('strRoomId must be at most 65535 bytes of UTF-8');
  checkUint('sdkAppId', info.sdkAppId, UINT32_MAX);
  checkUint('roomId', info.roomId, UINT32_MAX);
  checkUint('expire time (now + expire)', info.expireTime, UINT32_MAX);
  checkUint('privilegeMap', info.privilegeMap, UINT32_MAX);
  checkUint('accountType', info.accountType ?? 0, UINT32_MAX);

  const length = 1 + 2 + account.length + 20 + (room ? 2 + room.length : 0);
  const buf = new Uint8Array(length);
  const view = new DataView(buf.buffer);
  let offset = 0;
  view.setUint8(offset, room ? 1 : 0);
  offset += 1;
  view.setUint16(offset, account.length);
  offset += 2;
  buf.set(account, offset);
  offset += account.length;
  for (const v of [info.sdkAppId, info.roomId, info.expireTime, info.privilegeMap, info.accountType ?? 0]) {
    view.setUint32(offset, v);
    offset += 4;
  }
  if (room) {
    view.setUint16(offset, room.length);
    offset += 2;
    buf.set(room, offset);
  }
  return buf;
}

/**
 * Parses the userbuf of a privateMapKey (the `userbuf` of a decoded or verified privateMapKey).
 * @param userbuf - the binary userbuf
 * @returns the decoded fields
 * @throws {@link UserSigError} with reason `malformed` when the buffer does not have the expected layout
 */
export function parsePrivateMapKeyUserBuf(userbuf: Uint8Array): PrivateMapKeyInfo {
  const view = new DataView(userbuf.buffer, userbuf.byteOffset, userbuf.byteLength);
  const decoder = new TextDecoder('utf-8');
  const fail = (why: string): UserSigError => new UserSigError('malformed', `privateMapKey userbuf is invalid: ${why}`);
  if (userbuf.length < 3) throw fail(`it is only ${userbuf.length} bytes long`);
  const version = view.getUint8(0);
  if (version !== 0 && version !== 1) throw fail(`unknown version ${version} (expected 0 or 1)`);
  const accountLength = view.getUint16(1);
  let offset = 3;
  const fixedEnd = offset + accountLength + 20;
  if (userbuf.length < fixedEnd) throw fail(`it is truncated (${userbuf.length} bytes, need at least ${fixedEnd})`);
  const userId = decoder.decode(userbuf.subarray(offset, offset + accountLength));
  offset += accountLength;
  const [sdkAppId, roomId, expireTime, privilegeMap, accountType] = [0, 1, 2, 3, 4].map((i) =>
    view.getUint32(offset + i * 4),
  );
  offset += 20;
  let strRoomId = '';
  if (version === 1) {
    if (userbuf.length < offset + 2) throw fail('it is truncated before the string room id length');
    const roomLength = view.getUint16(offset);
    offset += 2;
    if (userbuf.length < offset + roomLength) throw fail('it is truncated inside the string room id');
    strRoomId = decoder.decode(userbuf.subarray(offset, offset + roomLength));
    offset += roomLength;
  }
  if (offset !== userbuf.length) throw fail(`it has ${userbuf.length - offset} unexpected trailing bytes`);
  return { version, userId, sdkAppId, roomId, strRoomId, expireTime, privilegeMap, accountType };
}

/**
 * Generates a privateMapKey for a numeric room id: a userSig-format credential whose userbuf limits the user
 * to `roomId` and the privileges in `privilegeMap`, until `now + expire`.
 * @param opts - see {@link GenPrivateMapKeyOptions}
 * @returns the privateMapKey string
 * @throws TypeError or RangeError when an option is missing or out of range
 * @example
 * ```ts
 * const key = await genPrivateMapKey({
 *   sdkAppId: 1400000000, secretKey: 'my-secret', userId: 'alice', roomId: 1234,
 *   privilegeMap: PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO,
 * });
 * ```
 */
export async function genPrivateMapKey(opts: GenPrivateMapKeyOptions): Promise<string> {
  return genKey(opts, opts.roomId, undefined);
}

/**
 * Generates a privateMapKey for a string room id (userbuf version 1; the numeric room id is written as 0).
 * @param opts - see {@link GenPrivateMapKeyWithStringRoomIDOptions}
 * @returns the privateMapKey string
 * @throws TypeError or RangeError when an option is missing or out of range
 */
export async function genPrivateMapKeyWithStringRoomID(opts: GenPrivateMapKeyWithStringRoomIDOptions): Promise<string> {
  checkString('strRoomId', opts.strRoomId);
  return genKey(opts, 0, opts.strRoomId);
}

async function genKey(opts: GenPrivateMapKeyBaseOptions, roomId: number, strRoomId: string | undefined): Promise<string> {
  const { sdkAppId, secretKey, userId, privilegeMap, expire = DEFAULT_EXPIRE } = opts;
  checkString('userId', userId);
  checkUint('expire', expire);
  const now = resolveNow(opts.now);
  const userbuf = buildPrivateMapKeyUserBuf({
    userId,
    sdkAppId,
    roomId,
    expireTime: now + expire,
    privilegeMap,
    accountType: 0,
    strRoomId,
  });
  return genUserSig({ sdkAppId, secretKey, userId, expire, now, userbuf });
}
