import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTP_CODE, SERVER_CODE } from '@conclave/protocol';
import { PRIVILEGE } from '@conclave/usersig';
import { allowedWants } from '../auth/privileges.js';
import { answersPlayback, playbackWants, type PlaybackStream } from '../engine/client-offer.js';
import { clientAddress, HttpError, readRaw, sendError } from '../http/respond.js';
import { parseRoomRef, roomRef, type RoomId, type RoomRef } from '../ids/room-ref.js';
import type { StoredBan } from '../store/store.js';
import { RoomRegistry } from '../room/room.js';
import { PLAY_PRIVILEGES, PUBLISH_PRIVILEGES } from './media-token.js';
import { bearerHeader, mediaRights, type MediaRights } from './media-rights.js';
import { engineStatus } from './whep-errors.js';
import type { WhepDeps } from './whep-deps.js';
import { WhipPublisher } from './whip-publisher.js';
import type { MixStream } from './mix-streams.js';
import { WhepQuota, type WhepSnapshot } from './whep-quota.js';

/** The largest SDP offer taken. */
const MAX_OFFER_BYTES = 64 * 1024;
const SDP = 'application/sdp';

/** Whose a session is: its token's user in a room of an app (a ban of that user there ends it). */
interface Owner {
  sdkAppId: number;
  ref: RoomRef;
  userId: string;
  /** Frees the session's place in the quotas; idempotent. */
  release: () => void;
}

/** A WHEP playback (of a room user, or of a mix), or a WHIP publish, addressed by its resource URL. */
type Resource = Owner & ({ kind: 'whep'; viewerId: string } | { kind: 'mix'; viewerId: string; stream: MixStream } | { kind: 'whip'; publisher: WhipPublisher });

/** A parsed endpoint path. */
type Endpoint =
  | { kind: 'whep'; sdkAppId: number; room: RoomId; userId: string; stream: PlaybackStream }
  | { kind: 'mix'; sdkAppId: number; streamId: string }
  | { kind: 'whip'; sdkAppId: number; room: RoomId }
  | { kind: 'resource'; id: string };

/**
 * WHEP playback and WHIP ingest (RFC 9725 and its WHEP sibling) of the rooms on this node:
 *
 * - `POST /whep/v1/{sdkAppId}/rooms/{room}/users/{userId}[/aux]`: plays a user's audio and main (or
 *   auxiliary) video; the engine answers the player's offer (ClientOfferPlayback).
 * - `POST /whep/v1/{sdkAppId}/streams/{streamId}`: plays a CDN mix started with that streamId (MixStreams); the
 *   token is one for the mix's room.
 * - `POST /whip/v1/{sdkAppId}/rooms/{room}`: the token's user enters the room and publishes (WhipPublisher).
 * - `DELETE /wh{e,i}p/v1/resources/{id}` (the Location of the 201) ends it; `PATCH` is 405 (no trickle ICE:
 *   the answer carries every candidate); `OPTIONS` answers CORS and `Accept-Post`.
 *
 * `{room}` is a room ref: the integer room id, or `s:` and the string room id. Every POST carries
 * `Authorization: Bearer <token>` (never in the URL: media-rights.ts): a privateMapKey (media-token.ts), checked
 * as a join of its user would be (billing, the room's bans), whose RECV bits with the source's SEND bits rule what
 * a player gets (docs/behaviour.md §7.5). Sessions count against per-app and per-node quotas (whep-quota.ts); a
 * ban ends the banned user's sessions in the room. Refusals are `{code, message}` JSON with 400, 401, 403, 404,
 * 415 or 503.
 */
export class WhepApi {
  readonly #deps: WhepDeps;
  readonly #resources = new Map<string, Resource>();
  readonly #quota: WhepQuota;
  readonly #stopBans: () => void;

  constructor(deps: WhepDeps) {
    this.#deps = deps;
    this.#quota = new WhepQuota(deps.config.limits);
    // After the ban's own caller: the admin API evicts a banned WHIP publisher itself (and says it was in the room).
    this.#stopBans = deps.bans.onBan((ban) => queueMicrotask(() => this.#banned(ban)));
    // A playback whose link failed is gone: its resource too. A WHIP publisher whose uplink was lost (the client
    // vanished without DELETE: closed its connection, or its ICE consent expired) leaves the room.
    deps.engine.onEvent((event) => {
      if (event.type === 'engine-restarted') this.#endAll();
      if (event.type === 'uplink-lost') {
        for (const [id, resource] of this.#resources) {
          if (resource.kind !== 'whip' || resource.publisher.participant.id !== event.participantId) continue;
          deps.logger.info({ userId: resource.publisher.participant.userId, detail: event.detail }, 'WHIP publisher lost its uplink: it leaves the room');
          this.#end(id);
        }
      }
      if (event.type !== 'downlink-failed') return;
      for (const [id, resource] of this.#resources) {
        if (resource.kind === 'whep' && resource.viewerId === event.subscriberId) this.#end(id);
      }
    });
  }

  /** True for the paths this API serves. */
  static wants(pathname: string): boolean {
    return pathname.startsWith('/whep/v1/') || pathname.startsWith('/whip/v1/');
  }

  /** Open playbacks and publishes. */
  get size(): number {
    return this.#resources.size;
  }

  /** Sessions by kind and quota refusals so far (/metrics). */
  snapshot(): WhepSnapshot {
    const sessions = { whep: 0, mix: 0, whip: 0 };
    for (const resource of this.#resources.values()) sessions[resource.kind]++;
    return { sessions, refusals: this.#quota.refusals };
  }

  /** Answers one request; never throws. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    res.setHeader('access-control-expose-headers', 'location, link, accept-post');
    try {
      const endpoint = parsePath(url.pathname);
      if (req.method === 'OPTIONS') {
        req.resume();
        const allow = endpoint.kind === 'resource' ? 'DELETE, PATCH, OPTIONS' : 'POST, OPTIONS';
        res.writeHead(204, {
          allow, 'access-control-allow-methods': allow, 'access-control-allow-headers': 'content-type, authorization, if-match',
          'access-control-max-age': '600', ...(endpoint.kind === 'resource' ? {} : { 'accept-post': SDP }),
        });
        res.end();
        return;
      }
      if (endpoint.kind === 'resource') {
        this.#resourceRequest(req, res, endpoint.id);
        return;
      }
      if (req.method !== 'POST') {
        req.resume();
        throw new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, `${req.method ?? ''} is not allowed here: POST an SDP offer`);
      }
      const created = await this.#post(req, url, endpoint);
      res.writeHead(201, { 'content-type': SDP, location: created.location, 'cache-control': 'no-store' });
      res.end(created.answer);
    } catch (error) {
      if (!(error instanceof HttpError)) this.#deps.logger.error({ err: error }, 'WHEP/WHIP request failed');
      sendError(this.#deps, res, error);
    }
  }

  async #post(req: IncomingMessage, url: URL, endpoint: Exclude<Endpoint, { kind: 'resource' }>): Promise<{ location: string; answer: string }> {
    let rights: MediaRights;
    let room: RoomId;
    let mix: MixStream | undefined;
    try {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type !== SDP) throw new HttpError(415, SERVER_CODE.INVALID_PARAMETER, `the body must be an SDP offer (content-type ${SDP})`);
      const authorization = bearerHeader(req, url);
      const needs = endpoint.kind === 'whep' ? PLAY_PRIVILEGES[endpoint.stream] : endpoint.kind === 'mix' ? PLAY_PRIVILEGES.main : PUBLISH_PRIVILEGES;
      if (endpoint.kind === 'mix') {
        mix = this.#deps.mixStreams.find(endpoint.sdkAppId, endpoint.streamId);
        if (!mix) throw new HttpError(404, SERVER_CODE.STREAM_NOT_EXIST, `no mix with streamId '${endpoint.streamId}' runs`);
        room = mix.room;
      } else {
        room = endpoint.room;
      }
      rights = await mediaRights(this.#deps, authorization, endpoint.sdkAppId, room, needs, clientAddress(req, this.#deps.config.trustProxy));
    } catch (error) {
      req.resume();
      throw error;
    }
    const owner = { sdkAppId: endpoint.sdkAppId, ref: roomRef(room.roomId, room.isString), userId: rights.userId, release: this.#quota.reserve(endpoint.sdkAppId) };
    try {
      const offer = (await readRaw(req, MAX_OFFER_BYTES)).toString('utf8');
      if (!offer.startsWith('v=0')) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'the body is not an SDP offer');
      return await this.#create(endpoint, mix, offer, owner, rights);
    } catch (error) {
      owner.release();
      throw error;
    }
  }

  async #create(endpoint: Exclude<Endpoint, { kind: 'resource' }>, mix: MixStream | undefined, offer: string, owner: Owner, rights: MediaRights): Promise<{ location: string; answer: string }> {
    const id = randomUUID();
    if (endpoint.kind === 'whip') {
      const { publisher, answer } = await WhipPublisher.start(this.#deps, endpoint.sdkAppId, endpoint.room, rights, offer, () => this.#forget(id));
      this.#resources.set(id, { ...owner, kind: 'whip', publisher });
      return { location: `/whip/v1/resources/${id}`, answer };
    }
    if (endpoint.kind === 'mix') {
      if (!mix) throw new HttpError(404, SERVER_CODE.STREAM_NOT_EXIST, `no mix with streamId '${endpoint.streamId}' runs`);
      const viewerId = `whep:${id}`;
      // The mix's inputs were chosen under their senders' SEND bits; what the player gets is its token's RECV bits.
      const wants = allowedWants(playbackWants('main'), PRIVILEGE.ALL, rights.privileges);
      const answer = await mix.answer(viewerId, offer, () => this.#forget(id), wants).catch((error: unknown) => {
        throw engineStatus(error, 'WHEP');
      });
      this.#resources.set(id, { ...owner, kind: 'mix', viewerId, stream: mix });
      this.#deps.logger.info({ sdkAppId: endpoint.sdkAppId, streamId: endpoint.streamId, viewer: rights.userId }, 'WHEP playback of a mix started');
      return { location: `/whep/v1/resources/${id}`, answer };
    }
    const answer = await this.#play(id, endpoint, offer, owner, rights);
    this.#deps.logger.info({ sdkAppId: endpoint.sdkAppId, room: endpoint.room.roomId, source: endpoint.userId, viewer: rights.userId }, 'WHEP playback started');
    return { location: `/whep/v1/resources/${id}`, answer };
  }

  async #play(id: string, endpoint: Extract<Endpoint, { kind: 'whep' }>, offer: string, owner: Owner, rights: MediaRights): Promise<string> {
    const { engine, rooms } = this.#deps;
    if (!answersPlayback(engine)) throw new HttpError(503, SERVER_CODE.MEDIA_UNAVAILABLE, 'this media engine cannot answer WHEP offers');
    const room = rooms.find(RoomRegistry.key(endpoint.sdkAppId, endpoint.room.roomId, endpoint.room.isString));
    const source = room?.get(endpoint.userId);
    if (!room || !source) throw new HttpError(404, SERVER_CODE.STREAM_NOT_EXIST, `user '${endpoint.userId}' is not in room ${endpoint.room.roomId}`);
    if (source.encrypted) throw new HttpError(403, SERVER_CODE.PERMISSION_DENIED, `${source.userId} publishes end-to-end encrypted media, which a WHEP player cannot decrypt`);
    // As for a subscription (docs/behaviour.md §6): only what the source may send and the token may receive.
    const wants = allowedWants(playbackWants(endpoint.stream), source.privileges, rights.privileges);
    if (!wants.audio && !wants.bigVideo && !wants.auxVideo) {
      throw new HttpError(403, SERVER_CODE.PRIVILEGE_DENIED, 'nothing of this stream may be played with this token (its RECV bits, the source\'s SEND bits)');
    }
    const viewerId = `whep:${id}`;
    engine.joinRoom(viewerId, room.key);
    this.#resources.set(id, { ...owner, kind: 'whep', viewerId });
    try {
      return await engine.answerPlayback(viewerId, source.id, endpoint.stream, offer, wants);
    } catch (error) {
      this.#end(id);
      throw engineStatus(error, 'WHEP');
    }
  }

  /** A ban took effect (here or on another cluster node): the user's sessions in that room end. */
  #banned(ban: StoredBan): void {
    for (const [id, resource] of this.#resources) {
      if (resource.sdkAppId !== ban.sdkAppId || resource.ref !== ban.roomRef || resource.userId !== ban.userId) continue;
      this.#deps.logger.info({ sdkAppId: ban.sdkAppId, room: ban.roomRef, userId: ban.userId, kind: resource.kind }, 'WHEP/WHIP session ended: its user was banned from the room');
      this.#end(id, 'kick');
    }
  }

  #resourceRequest(req: IncomingMessage, res: ServerResponse, id: string): void {
    req.resume();
    if (!this.#resources.has(id)) throw new HttpError(404, HTTP_CODE.NOT_FOUND, 'no such WHEP/WHIP session');
    if (req.method === 'PATCH') {
      res.setHeader('allow', 'DELETE');
      throw new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, 'trickle ICE and ICE restarts are not supported: the answer carries every candidate');
    }
    if (req.method !== 'DELETE') throw new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, `${req.method ?? ''} is not allowed on a session`);
    this.#end(id);
    res.writeHead(200, { 'cache-control': 'no-store' });
    res.end();
  }

  /** Forgets a session that ended by itself (a WHIP publisher removed, a mix player's link gone) and frees its place. */
  #forget(id: string): void {
    const resource = this.#resources.get(id);
    this.#resources.delete(id);
    resource?.release();
  }

  #end(id: string, reason: 'normal' | 'kick' = 'normal'): void {
    const resource = this.#resources.get(id);
    this.#forget(id);
    if (resource?.kind === 'whip') resource.publisher.stop(reason);
    if (resource?.kind === 'whep') this.#deps.releaseParticipant(resource.viewerId);
    if (resource?.kind === 'mix') resource.stream.end(resource.viewerId);
  }

  /** Ends every playback and publish (server shutdown, engine restart). */
  #endAll(): void {
    for (const id of [...this.#resources.keys()]) this.#end(id);
  }

  /** Closes every session. */
  close(): void {
    this.#stopBans();
    this.#endAll();
  }
}

/** The endpoint a path names; 404 when none. */
function parsePath(pathname: string): Endpoint {
  const parts = pathname.split('/').slice(1).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'the path is not valid URL encoding');
    }
  });
  const [kind, version, ...rest] = parts;
  const notFound = () => new HttpError(404, HTTP_CODE.NOT_FOUND, `not found: ${pathname}`);
  if ((kind !== 'whep' && kind !== 'whip') || version !== 'v1') throw notFound();
  if (rest.length === 2 && rest[0] === 'resources') return { kind: 'resource', id: rest[1] };
  const sdkAppId = Number(rest[0]);
  if (kind === 'whep' && rest.length === 3 && rest[1] === 'streams' && /^\d{1,10}$/.test(rest[0] ?? '') && rest[2] !== '') return { kind: 'mix', sdkAppId, streamId: rest[2] };
  if (!/^\d{1,10}$/.test(rest[0] ?? '') || rest[1] !== 'rooms' || rest[2] === undefined) throw notFound();
  const room = parseRoomRef(rest[2]);
  if (!room) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `'${rest[2]}' is not a room (an integer room id, or s: and a string room id)`);
  if (kind === 'whip' && rest.length === 3) return { kind: 'whip', sdkAppId, room };
  if (kind === 'whep' && rest.length >= 5 && rest.length <= 6 && rest[3] === 'users' && rest[4] !== '') {
    const stream = rest[5] ?? 'main';
    if (stream !== 'main' && stream !== 'aux') throw notFound();
    return { kind: 'whep', sdkAppId, room, userId: rest[4], stream };
  }
  throw notFound();
}
