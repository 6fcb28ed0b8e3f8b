import type { IncomingMessage } from 'node:http';
import { SERVER_CODE } from '@conclave/protocol';
import type { Authenticator } from '../auth/authenticator.js';
import { HttpError } from '../http/respond.js';
import { roomRef, type RoomId } from '../ids/room-ref.js';
import type { BanList } from '../room/ban-list.js';
import { verifyMediaToken } from './media-token.js';

/** What a WHEP / WHIP request may do, once its token and the room's rules passed. */
export interface MediaRights {
  /** The token's user: the player, or the userId a WHIP publisher appears under. */
  userId: string;
  /** The token's privilege bits: what the player may receive, what the publisher may send. */
  privileges: number;
}

/**
 * The bearer token of a WHEP / WHIP request, from its Authorization header only. A token in the URL
 * (`?access_token=`, RFC 6750 §2.3) is refused: request lines are what reverse proxies, access logs and browser
 * histories keep, and every WHEP / WHIP client can send the header (the SDK's LEBPlayer moves a URL's token there).
 */
export function bearerHeader(req: IncomingMessage, url: URL): string | undefined {
  if (req.headers.authorization === undefined && url.searchParams.has('access_token')) {
    throw new HttpError(401, SERVER_CODE.PRIVATE_MAP_KEY_REQUIRED, 'send the token as Authorization: Bearer <token>: a token in the URL (?access_token=) is not taken, URLs are logged and kept');
  }
  return req.headers.authorization;
}

/**
 * Checks a WHEP / WHIP request as a join of its token's user would be: the token (media-token.ts: a privateMapKey for
 * the room with `needs`, counted against `from`'s budget of token checks), the app's billing state, the room's bans.
 * Resolves to the user and its privilege bits.
 */
export async function mediaRights(deps: { auth: Authenticator; bans: Pick<BanList, 'find'> }, header: string | undefined, sdkAppId: number, room: RoomId, needs: number, from: string): Promise<MediaRights> {
  // The privilege bits the request runs with are the token's, as a join's are its key's.
  const { userId, privileges } = await verifyMediaToken(deps.auth, header, sdkAppId, room, needs, from);
  const billing = deps.auth.billing(sdkAppId);
  if (!billing.ok) throw new HttpError(403, billing.code, billing.message);
  const ban = deps.bans.find(sdkAppId, roomRef(room.roomId, room.isString), userId);
  if (ban) throw new HttpError(403, SERVER_CODE.USER_BANNED, `banned from this room until ${new Date(ban.until).toISOString()}`);
  return { userId, privileges };
}
