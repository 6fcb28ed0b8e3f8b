import { type AdminRoom, type AdminUser, decodeFlag, HTTP_CODE, ROLE_CODE, SERVER_CODE } from '@conclave/protocol';
import type { AppConfig } from '../config/config.js';
import type { AdminDeps } from './admin-deps.js';
import { FailureLockout } from '../limits/failure-lockout.js';
import { evictParticipant } from '../room/eviction.js';
import type { Participant } from '../room/participant.js';
import { parseRoomRef, roomRef } from '../ids/room-ref.js';
import { RoomRegistry, type Room } from '../room/room.js';
import { HttpError } from '../http/respond.js';
import type { Bindings, RouteInput } from '../http/router.js';
import { mediaBindings, type MediaAdminOperation } from './media-routes.js';

/** The admin API's operations (HTTP_ROUTES entries tagged admin). */
type AdminOperation = 'getApp' | 'getCallbacks' | 'listRooms' | 'getRoom' | 'listUsers' | 'kickUser' | 'banUser' | 'unbanUser' | 'listBans' | 'dismissRoom' | 'listLogs' | MediaAdminOperation;

function userView(p: Participant): AdminUser {
  const f = decodeFlag(p.flag);
  return {
    userId: p.userId,
    tinyId: p.tinyId,
    role: p.role === ROLE_CODE.audience ? 'audience' : 'anchor',
    flag: p.flag,
    streams: { audio: f.hasAudio, video: f.hasVideo, small: f.hasSmall, aux: f.hasAuxiliary, audioMuted: f.audioMuted, videoMuted: f.videoMuted, auxMuted: f.auxMuted },
    connected: !p.detached,
    joinedAt: new Date(p.joinedAt).toISOString(),
    subscriptions: [...p.subscriptions.keys()],
  };
}

function roomView(room: Room): AdminRoom {
  const id = parseRoomRef(room.ref);
  const { anchors, audience } = room.roleCounts();
  let streams = 0;
  for (const p of room.participants()) {
    const f = decodeFlag(p.flag);
    streams += Number(f.hasAudio) + Number(f.hasVideo) + Number(f.hasAuxiliary);
  }
  return {
    roomKey: room.ref,
    ...(id?.isString ? { strRoomId: id.roomId } : { roomId: Number(id?.roomId) }),
    users: room.size,
    anchors,
    audience,
    streams,
    createdAt: new Date(room.createdAt).toISOString(),
  };
}

function notFound(what: string): HttpError {
  return new HttpError(404, HTTP_CODE.NOT_FOUND, what);
}

/** The room registry's key of an admin roomKey of `app`. */
function registryKey(app: AppConfig, roomKey: string): string {
  const id = roomId(roomKey);
  return RoomRegistry.key(app.sdkAppId, id.roomId, id.isString);
}

function roomId(roomKey: string): { roomId: string; isString: boolean } {
  const id = parseRoomRef(roomKey);
  if (!id) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'roomKey must be an integer room id or "s:" followed by a string room id');
  return id;
}

/** Parses a time filter: milliseconds since the epoch, or an ISO 8601 date. */
function parseTime(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `${name} must be ms since the epoch or an ISO 8601 date`);
  return ms;
}

/**
 * The admin REST API (routes and schemas: HTTP_ROUTES in @conclave/protocol). Each request names an app in
 * its path and carries that app's admin key (`Authorization: Bearer <adminKey>`); a key opens its own app
 * only, and every other app (existing or not) answers 403 alike, so one app's key learns nothing about
 * another. Failed keys are counted per (client address, app named in the path): 20 in a minute lock that pair out
 * for a minute, so a wrong key from one address locks out neither the app's backend elsewhere nor other apps.
 */
export class AdminApi {
  readonly #ctx: AdminDeps;
  readonly #lockout = new FailureLockout({ failures: 20, windowMs: 60_000, lockMs: 60_000 });
  /** The app each request authenticated for (set by the key check, which runs first). */
  readonly #apps = new WeakMap<object, AppConfig>();

  constructor(ctx: AdminDeps) {
    this.#ctx = ctx;
  }

  /** Checks the admin key before anything else about the request is looked at. */
  #authenticate = (input: RouteInput<AdminOperation>): void => {
    const now = Date.now();
    const rawAppId = input.rawParams.sdkAppId;
    const validAppId = rawAppId !== undefined && /^\d{1,10}$/.test(rawAppId);
    // The credential tried is the app's admin key: whether the app exists is not told apart (same answers).
    const lockKey = `${input.address}|${validAppId ? rawAppId : '-'}`;
    if (this.#lockout.locked(lockKey, now)) throw new HttpError(429, SERVER_CODE.RATE_LIMITED, 'too many failed admin keys from this address; try again later');
    const header = input.req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new HttpError(401, HTTP_CODE.ADMIN_KEY_MISSING, 'an admin key is required: Authorization: Bearer <adminKey>');
    const app = validAppId ? this.#ctx.auth.adminApp(Number(rawAppId), match[1]) : undefined;
    if (!app) {
      this.#lockout.fail(lockKey, now);
      throw new HttpError(403, HTTP_CODE.ADMIN_KEY_INVALID, 'this admin key is not valid for this sdkAppId');
    }
    this.#apps.set(input.req, app);
  };

  #app(input: RouteInput<AdminOperation>): AppConfig {
    const app = this.#apps.get(input.req);
    if (!app) throw new HttpError(403, HTTP_CODE.ADMIN_KEY_INVALID, 'this admin key is not valid for this sdkAppId');
    return app;
  }

  #room(app: AppConfig, roomKey: string): Room {
    const room = this.#ctx.rooms.find(registryKey(app, roomKey));
    if (!room) throw notFound(`room ${roomKey} has nobody in it`);
    return room;
  }

  /** An admin action done: counted, filed with the room's logs, and logged. */
  #audit(action: string, app: AppConfig, ref: string, userId: string, text: string): void {
    this.#ctx.adminObserver.emit({ type: 'action', action });
    this.#ctx.store.insertLog({ sdkAppId: app.sdkAppId, roomRef: ref, userId, cmdType: 'server_event', version: 'server', clientTime: null, receivedAt: Date.now(), log: `admin: ${text}` });
    this.#ctx.logger.info({ sdkAppId: app.sdkAppId, room: ref, userId }, `admin: ${text}`);
  }

  /** The admin routes' handlers, each behind the admin key check. */
  bindings(): Bindings<AdminOperation> {
    const ctx = this.#ctx;
    const before = this.#authenticate;
    return {
      ...mediaBindings(ctx, { before, app: (input) => this.#app(input), room: (app, roomKey) => this.#room(app, roomKey), roomKey: (app, roomKey) => registryKey(app, roomKey) }),
      getCallbacks: {
        before,
        handle: (input) => ctx.callbacks.status(this.#app(input).sdkAppId),
      },
      getApp: {
        before,
        handle: (input) => {
          const app = this.#app(input);
          const rooms = ctx.rooms.ofApp(app.sdkAppId);
          return {
            sdkAppId: app.sdkAppId,
            name: app.name ?? null,
            billing: app.billing ?? 'active',
            requirePrivateMapKey: app.requirePrivateMapKey ?? false,
            rooms: rooms.length,
            users: rooms.reduce((n, room) => n + room.size, 0),
          };
        },
      },
      listRooms: {
        before,
        handle: (input) => ({ rooms: ctx.rooms.ofApp(this.#app(input).sdkAppId).map(roomView) }),
      },
      getRoom: {
        before,
        handle: (input) => {
          const room = this.#room(this.#app(input), input.params.roomKey);
          const robots = ctx.transcribers.list(room.key).map((r) => ({
            robotId: r.robotId, kind: 'transcriber' as const, engine: r.recognizer, sourceLanguage: r.sourceLanguage,
            speakers: r.speakers.map(({ userId, audioSeconds }) => ({ userId, audioSeconds })),
            sentences: r.sentences, audioSeconds: r.audioSeconds, failures: r.failures, lastFinalLatencyMs: r.lastFinalLatencyMs,
          }));
          return { ...roomView(room), userList: [...room.participants()].map(userView), robots };
        },
      },
      listUsers: {
        before,
        handle: (input) => ({ users: [...this.#room(this.#app(input), input.params.roomKey).participants()].map(userView) }),
      },
      kickUser: {
        before,
        handle: async (input) => {
          const { roomKey, userId } = input.params;
          const app = this.#app(input);
          const room = this.#room(app, roomKey);
          const user = room.get(userId);
          if (!user) throw notFound(`user ${userId} is not in room ${roomKey}`);
          const { reason } = await input.body();
          evictParticipant(ctx, room, user, { reason: 'kick', message: reason ?? 'removed from the room by the administrator' });
          this.#audit('kick', app, room.ref, user.userId, `kicked${reason ? `: ${reason}` : ''}`);
          return { kicked: true, userId: user.userId, roomKey: room.ref };
        },
      },
      banUser: {
        before,
        handle: async (input) => {
          const { params } = input;
          const app = this.#app(input);
          const body = await input.body();
          const id = roomId(params.roomKey);
          const ref = roomRef(id.roomId, id.isString);
          const now = Date.now();
          const seconds = body.seconds ?? ctx.config.limits.banSeconds;
          const until = now + seconds * 1000;
          ctx.bans.ban({ sdkAppId: app.sdkAppId, roomRef: ref, userId: params.userId, until, reason: body.reason ?? '', createdAt: now });
          const room = ctx.rooms.find(RoomRegistry.key(app.sdkAppId, id.roomId, id.isString));
          const user = room?.get(params.userId);
          if (room && user) {
            evictParticipant(ctx, room, user, { reason: 'banned', message: body.reason ?? `banned from the room for ${seconds} s` });
          }
          this.#audit('ban', app, ref, params.userId, `banned for ${seconds} s${body.reason ? `: ${body.reason}` : ''}`);
          return { banned: true, userId: params.userId, roomKey: ref, until: new Date(until).toISOString(), wasInRoom: Boolean(user) };
        },
      },
      unbanUser: {
        before,
        handle: (input) => {
          const { params } = input;
          const app = this.#app(input);
          const id = roomId(params.roomKey);
          const ref = roomRef(id.roomId, id.isString);
          if (!ctx.bans.unban(app.sdkAppId, ref, params.userId)) throw notFound(`user ${params.userId} is not banned from room ${ref}`);
          this.#audit('unban', app, ref, params.userId, 'ban lifted');
          return { unbanned: true, userId: params.userId, roomKey: ref };
        },
      },
      listBans: {
        before,
        handle: (input) => ({
          bans: ctx.bans.ofApp(this.#app(input).sdkAppId).map((ban) => ({
            roomKey: ban.roomRef, userId: ban.userId, until: new Date(ban.until).toISOString(), reason: ban.reason, createdAt: new Date(ban.createdAt).toISOString(),
          })),
        }),
      },
      dismissRoom: {
        before,
        handle: (input) => {
          const app = this.#app(input);
          const room = this.#room(app, input.params.roomKey);
          const users = [...room.participants()];
          for (const user of users) evictParticipant(ctx, room, user, { reason: 'room_disband', message: 'the room was dismissed by the administrator' });
          this.#audit('dismiss', app, room.ref, '', `room dismissed (${users.length} users)`);
          return { dismissed: true, roomKey: room.ref, users: users.map((u) => u.userId) };
        },
      },
      listLogs: {
        before,
        handle: (input) => {
          const { query } = input;
          const app = this.#app(input);
          let ref: string | undefined;
          if (query.roomKey) {
            const id = roomId(query.roomKey);
            ref = roomRef(id.roomId, id.isString);
          }
          const limit = query.limit ? Number(query.limit) : 100;
          const logs = ctx.store.queryLogs({
            sdkAppId: app.sdkAppId, roomRef: ref, userId: query.userId, cmdType: query.cmdType,
            from: parseTime(query.from, 'from'), to: parseTime(query.to, 'to'), before: query.before ? Number(query.before) : undefined, limit,
          });
          return {
            logs: logs.map((log) => ({
              id: log.id, roomKey: log.roomRef, userId: log.userId, cmdType: log.cmdType, version: log.version,
              clientTime: log.clientTime === null ? null : new Date(log.clientTime).toISOString(),
              receivedAt: new Date(log.receivedAt).toISOString(), log: log.log,
            })),
            next: logs.length === limit ? logs[logs.length - 1].id : null,
          };
        },
      },
    };
  }
}
