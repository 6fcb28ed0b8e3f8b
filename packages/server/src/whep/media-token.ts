import { SERVER_CODE } from '@conclave/protocol';
import { decodeUserSig, genPrivateMapKey, genPrivateMapKeyWithStringRoomID, hasPrivilege, PRIVILEGE } from '@conclave/usersig';
import type { Authenticator } from '../auth/authenticator.js';
import { mediaTokenKey } from '../auth/media-token-key.js';
import { HttpError } from '../http/respond.js';
import type { RoomId } from '../ids/room-ref.js';

/** What a WHEP player needs (either video privilege; audio is sent when granted). */
export const PLAY_PRIVILEGES = { main: PRIVILEGE.RECV_VIDEO, aux: PRIVILEGE.RECV_SUB_VIDEO } as const;
/** What a WHIP publisher needs: entering the room and sending audio and video. */
export const PUBLISH_PRIVILEGES = PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO | PRIVILEGE.SEND_VIDEO;

/**
 * The bearer token of WHEP and WHIP: a media token this server minted (mintMediaToken), or a privateMapKey of the
 * app made by any TLSSigAPIv2 tool (the app's HMAC over the user, the room and the privilege bits, with an
 * expiry). The token's user is who plays or publishes (a WHIP publisher appears under it). Refusals are 401 (no,
 * malformed, foreign, expired token; token for another room), 403 (privileges lacking) or 429 (`from` has spent
 * its limits.credentialChecksPerMinute), with `{code, message}`. Resolves to the token's user and privilege bits.
 * @param from - the client's address: when given, the check is counted against its budget of token checks
 */
export async function verifyMediaToken(auth: Authenticator, header: string | undefined, sdkAppId: number, room: RoomId, needs: number, from?: string): Promise<{ userId: string; privileges: number }> {
  if (from !== undefined && !auth.limits.takeCheck('media-token', from)) {
    throw new HttpError(429, SERVER_CODE.RATE_LIMITED, 'too many token checks from this address: try again later');
  }
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!token) throw new HttpError(401, SERVER_CODE.PRIVATE_MAP_KEY_REQUIRED, 'a bearer token is required (Authorization: Bearer <privateMapKey>)');
  let userId: string;
  try {
    userId = decodeUserSig(token).userId;
  } catch {
    throw new HttpError(401, SERVER_CODE.PRIVATE_MAP_KEY_INVALID, 'the bearer token is not a privateMapKey');
  }
  const checked = await auth.verifyMediaToken(sdkAppId, userId, token, { roomId: room.roomId, useStringRoomId: room.isString });
  if (!checked.ok) throw new HttpError(401, checked.code, checked.message);
  if (!hasPrivilege(checked.privileges, needs)) {
    throw new HttpError(403, SERVER_CODE.PRIVILEGE_DENIED, `the token does not grant ${describe(needs)}`);
  }
  return { userId, privileges: checked.privileges };
}

function describe(bits: number): string {
  return Object.entries(PRIVILEGE).filter(([name, bit]) => name !== 'ALL' && (bits & bit) !== 0).map(([name]) => name).join(' + ');
}

/** Options of mintMediaToken. */
export interface MintOptions {
  sdkAppId: number;
  secretKey: string;
  /** Who plays, or who publishes (the WHIP participant's userId). */
  userId: string;
  room: RoomId;
  /** 'play' (WHEP: receive audio, video and the sub stream) or 'publish' (WHIP: enter, send audio and video). */
  purpose: 'play' | 'publish';
  /** Seconds; default one day. */
  expire?: number;
}

/**
 * Mints a WHEP (play) or WHIP (publish) token: a privateMapKey with the purpose's privileges, signed with the app's
 * media-token key (auth/media-token-key.ts), so it is refused as a userSig and as a join's privateMapKey.
 */
export function mintMediaToken(o: MintOptions): Promise<string> {
  const privilegeMap = o.purpose === 'play'
    ? PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO | PRIVILEGE.RECV_SUB_VIDEO
    : PUBLISH_PRIVILEGES;
  const base = { sdkAppId: o.sdkAppId, secretKey: mediaTokenKey(o.secretKey), userId: o.userId, privilegeMap, expire: o.expire ?? 86_400 };
  return o.room.isString ? genPrivateMapKeyWithStringRoomID({ ...base, strRoomId: o.room.roomId }) : genPrivateMapKey({ ...base, roomId: Number(o.room.roomId) });
}
