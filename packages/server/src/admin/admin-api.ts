import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AdminRoom, type AdminUser, decodeFlag, HTTP_CODE, LOG_CMD_TYPES, ROLE_CODE, SERVER_CODE } from '@conclave/protocol';
import { z } from 'zod';
import type { AppConfig } from '../config/config.js';
import { formatIssues } from '../config/schema.js';
import type { ServerContext } from '../context.js';
import { KeyedRateLimiter } from '../limits/rate-limiter.js';
import { evictParticipant } from '../room/eviction.js';
import type { Participant } from '../room/participant.js';
import { parseRoomRef, roomRef } from '../room/room-ref.js';
import { RoomRegistry, type Room } from '../room/room.js';
import { HttpError, readRaw, sendError, sendJson } from '../http/respond.js';
import { mediaRoutes } from '../jobs/admin-routes.js';

/** Path prefix of the admin API. */
export const ADMIN_PREFIX = '/admin/';
/** Where the OpenAPI description is served (no key needed). */
export const OPENAPI_PATH = '/admin/openapi.json';

type Method = 'GET' | 'POST' | 'DELETE';
type Params = Record<string, string>;
export interface RouteContext {
  app: AppConfig;
  params: Params;
  url: URL;
  req: IncomingMessage;
  /** For a route that writes its own response (a file download): it returns undefined after writing. */
  res: ServerResponse;
}
export interface Route {
  method: Method;
  /** OpenAPI-style path template, e.g. /admin/v1/apps/{sdkAppId}/rooms/{roomKey}. */
  path: string;
  handle(route: RouteContext): Promise<unknown> | unknown;
}

const banBodySchema = z.strictObject({
  seconds: z.number().int().min(1).max(365 * 24 * 3600).optional(),
  reason: z.string().max(256).optional(),
});
const kickBodySchema = z.strictObject({ reason: z.string().max(256).optional() });

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
    subscriptions: [...p.subscriptions],
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

/** Parses a time filter: milliseconds since the epoch, or an ISO 8601 date. */
function parseTime(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `${name} must be ms since the epoch or an ISO 8601 date`);
  return ms;
}

export async function readBody<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  const raw = await readRaw(req, 16 * 1024);
  let json: unknown = {};
  if (raw.length > 0) {
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'body is not valid JSON');
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `invalid body: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * The admin REST API. Each request names an app in its path and carries that app's admin key
 * (`Authorization: Bearer <adminKey>`); a key opens its own app only, and every other app (existing
 * or not) answers 403 alike, so one app's key learns nothing about another. Failed keys are rate-limited
 * per address. Described in packages/server/openapi.json, served at /admin/openapi.json.
 */
export class AdminApi {
  readonly #ctx: ServerContext;
  readonly #routes: Route[];
  readonly #failures = new KeyedRateLimiter({ amount: 20, windowMs: 60_000 });
  readonly #lockedUntil = new Map<string, number>();
  #openapi: string | undefined;

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
    this.#routes = this.#defineRoutes();
  }

  /** The routes (method and OpenAPI path), for the OpenAPI consistency test. */
  get routes(): { method: Method; path: string }[] {
    return this.#routes.map(({ method, path }) => ({ method, path }));
  }

  /** Handles a request under /admin/. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, address: string): Promise<void> {
    try {
      if (url.pathname === OPENAPI_PATH) {
        if (req.method !== 'GET') throw new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, 'use GET');
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
        res.end(this.#openapiText());
        return;
      }
      const match = this.#match(req.method ?? 'GET', url.pathname);
      const app = this.#authenticate(req, match.params.sdkAppId, address);
      const body = await match.route.handle({ app, params: match.params, url, req, res });
      if (!res.headersSent) sendJson(res, 200, body);
    } catch (error) {
      sendError(this.#ctx, res, error);
    }
  }

  #openapiText(): string {
    this.#openapi ??= readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
    return this.#openapi;
  }

  #match(method: string, pathname: string): { route: Route; params: Params } {
    const parts = pathname.split('/');
    let pathMatched = false;
    for (const route of this.#routes) {
      const pattern = route.path.split('/');
      if (pattern.length !== parts.length) continue;
      const params: Params = {};
      let ok = true;
      for (let i = 0; i < pattern.length && ok; i++) {
        const param = /^\{(\w+)\}$/.exec(pattern[i]);
        if (param) {
          try {
            params[param[1]] = decodeURIComponent(parts[i]);
          } catch {
            throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `${param[1]} is not valid URL encoding`);
          }
          ok = params[param[1]].length > 0;
        } else {
          ok = pattern[i] === parts[i];
        }
      }
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method) return { route, params };
    }
    if (pathMatched) throw new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, `${method} is not allowed here`);
    throw notFound(`no admin route ${pathname}`);
  }

  #authenticate(req: IncomingMessage, rawAppId: string | undefined, address: string): AppConfig {
    const now = Date.now();
    const locked = this.#lockedUntil.get(address);
    if (locked !== undefined && locked > now) throw new HttpError(429, SERVER_CODE.RATE_LIMITED, 'too many failed admin keys from this address; try again later');
    if (locked !== undefined) this.#lockedUntil.delete(address);
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new HttpError(401, HTTP_CODE.ADMIN_KEY_MISSING, 'an admin key is required: Authorization: Bearer <adminKey>');
    const sdkAppId = Number(rawAppId);
    const app = rawAppId && /^\d{1,10}$/.test(rawAppId) ? this.#ctx.auth.adminApp(sdkAppId, match[1]) : undefined;
    if (!app) {
      if (!this.#failures.take(address, 0, now)) {
        if (this.#lockedUntil.size > 10_000) this.#lockedUntil.clear();
        this.#lockedUntil.set(address, now + 60_000);
      }
      throw new HttpError(403, HTTP_CODE.ADMIN_KEY_INVALID, 'this admin key is not valid for this sdkAppId');
    }
    return app;
  }

  #room(app: AppConfig, roomKey: string): Room {
    const id = parseRoomRef(roomKey);
    if (!id) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'roomKey must be an integer room id or "s:" followed by a string room id');
    const room = this.#ctx.rooms.find(RoomRegistry.key(app.sdkAppId, id.roomId, id.isString));
    if (!room) throw notFound(`room ${roomKey} has nobody in it`);
    return room;
  }

  #record(app: AppConfig, ref: string | null, userId: string, text: string): void {
    this.#ctx.store.insertLog({ sdkAppId: app.sdkAppId, roomRef: ref, userId, cmdType: 'server_event', version: 'server', clientTime: null, receivedAt: Date.now(), log: text });
  }

  #defineRoutes(): Route[] {
    const ctx = this.#ctx;
    const base = '/admin/v1/apps/{sdkAppId}';
    return [
      ...mediaRoutes(ctx, base),
      {
        method: 'GET', path: base,
        handle: ({ app }) => {
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
      {
        method: 'GET', path: `${base}/rooms`,
        handle: ({ app }) => ({ rooms: ctx.rooms.ofApp(app.sdkAppId).map(roomView) }),
      },
      {
        method: 'GET', path: `${base}/rooms/{roomKey}`,
        handle: ({ app, params }) => {
          const room = this.#room(app, params.roomKey);
          return { ...roomView(room), userList: [...room.participants()].map(userView) };
        },
      },
      {
        method: 'GET', path: `${base}/rooms/{roomKey}/users`,
        handle: ({ app, params }) => ({ users: [...this.#room(app, params.roomKey).participants()].map(userView) }),
      },
      {
        method: 'POST', path: `${base}/rooms/{roomKey}/users/{userId}/kick`,
        handle: async ({ app, params, req }) => {
          const body = await readBody(req, kickBodySchema);
          const room = this.#room(app, params.roomKey);
          const user = room.get(params.userId);
          if (!user) throw notFound(`user ${params.userId} is not in room ${params.roomKey}`);
          evictParticipant(ctx, room, user, { reason: 'kick', message: body.reason ?? 'removed from the room by the administrator' });
          ctx.metrics.adminAction('kick');
          this.#record(app, room.ref, user.userId, `admin: kicked${body.reason ? `: ${body.reason}` : ''}`);
          ctx.logger.info({ room: room.key, userId: user.userId }, 'admin kick');
          return { kicked: true, userId: user.userId, roomKey: room.ref };
        },
      },
      {
        method: 'POST', path: `${base}/rooms/{roomKey}/users/{userId}/ban`,
        handle: async ({ app, params, req }) => {
          const body = await readBody(req, banBodySchema);
          const id = parseRoomRef(params.roomKey);
          if (!id) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'roomKey must be an integer room id or "s:" followed by a string room id');
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
          ctx.metrics.adminAction('ban');
          this.#record(app, ref, params.userId, `admin: banned for ${seconds} s${body.reason ? `: ${body.reason}` : ''}`);
          ctx.logger.info({ sdkAppId: app.sdkAppId, room: ref, userId: params.userId, seconds }, 'admin ban');
          return { banned: true, userId: params.userId, roomKey: ref, until: new Date(until).toISOString(), wasInRoom: Boolean(user) };
        },
      },
      {
        method: 'DELETE', path: `${base}/rooms/{roomKey}/users/{userId}/ban`,
        handle: ({ app, params }) => {
          const id = parseRoomRef(params.roomKey);
          if (!id) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'roomKey must be an integer room id or "s:" followed by a string room id');
          const ref = roomRef(id.roomId, id.isString);
          if (!ctx.bans.unban(app.sdkAppId, ref, params.userId)) throw notFound(`user ${params.userId} is not banned from room ${ref}`);
          ctx.metrics.adminAction('unban');
          this.#record(app, ref, params.userId, 'admin: ban lifted');
          return { unbanned: true, userId: params.userId, roomKey: ref };
        },
      },
      {
        method: 'GET', path: `${base}/bans`,
        handle: ({ app }) => ({
          bans: ctx.bans.ofApp(app.sdkAppId).map((ban) => ({
            roomKey: ban.roomRef, userId: ban.userId, until: new Date(ban.until).toISOString(), reason: ban.reason, createdAt: new Date(ban.createdAt).toISOString(),
          })),
        }),
      },
      {
        method: 'POST', path: `${base}/rooms/{roomKey}/dismiss`,
        handle: ({ app, params }) => {
          const room = this.#room(app, params.roomKey);
          const users = [...room.participants()];
          for (const user of users) evictParticipant(ctx, room, user, { reason: 'room_disband', message: 'the room was dismissed by the administrator' });
          ctx.metrics.adminAction('dismiss');
          this.#record(app, room.ref, '', `admin: room dismissed (${users.length} users)`);
          ctx.logger.info({ room: room.key, users: users.length }, 'admin dismiss');
          return { dismissed: true, roomKey: room.ref, users: users.map((u) => u.userId) };
        },
      },
      {
        method: 'GET', path: `${base}/logs`,
        handle: ({ app, url }) => {
          const q = url.searchParams;
          const rawRoom = q.get('roomKey');
          let ref: string | undefined;
          if (rawRoom) {
            const id = parseRoomRef(rawRoom);
            if (!id) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'roomKey must be an integer room id or "s:" followed by a string room id');
            ref = roomRef(id.roomId, id.isString);
          }
          const cmdType = q.get('cmdType') || undefined;
          if (cmdType !== undefined && cmdType !== 'server_event' && !(LOG_CMD_TYPES as readonly string[]).includes(cmdType)) {
            throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `cmdType must be one of ${[...LOG_CMD_TYPES, 'server_event'].join(', ')}`);
          }
          const limitText = q.get('limit');
          const limit = limitText ? Number(limitText) : 100;
          if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'limit must be an integer in [1, 1000]');
          const beforeText = q.get('before');
          const before = beforeText ? Number(beforeText) : undefined;
          if (before !== undefined && (!Number.isSafeInteger(before) || before < 1)) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'before must be a log id');
          const logs = ctx.store.queryLogs({
            sdkAppId: app.sdkAppId, roomRef: ref, userId: q.get('userId') || undefined, cmdType,
            from: parseTime(q.get('from'), 'from'), to: parseTime(q.get('to'), 'to'), before, limit,
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
    ];
  }
}
