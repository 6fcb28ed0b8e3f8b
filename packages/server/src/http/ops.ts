import type { IncomingMessage } from 'node:http';
import { openApiDocument } from '@conclave/protocol/schemas';
import type { ServerConfig } from '../config/config.js';
import type { ConnectionTracker } from '../limits/connection-tracker.js';
import type { Metrics } from '../ops/metrics.js';
import type { RoomRegistry } from '../room/room.js';
import type { Store } from '../store/store.js';
import { HttpError } from './respond.js';
import { HttpReply, type Bindings } from './router.js';
import { HTTP_CODE } from '@conclave/protocol';

/** True for a client on this machine (IPv4 or IPv6 loopback). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** A loopback host name, as a Host header or an origin's host carries it (with or without a port). */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = /^\[([^\]]+)\](?::\d+)?$/.exec(host)?.[1] ?? host.replace(/:\d+$/, '');
  return name.toLowerCase() === 'localhost' || /^127(\.\d{1,3}){3}$/.test(name) || name === '::1';
}

/**
 * A request for the dev app's keys from this machine's own browser or tools (docs/architecture.md "Static files
 * and the dev app"): from loopback, for a loopback Host (DNS rebinding names another host), from no page or a
 * loopback page (Origin), and not forwarded by a proxy (which would make any client look local).
 */
export function isLocalRequest(req: IncomingMessage): boolean {
  const { headers } = req;
  if (!isLoopback(req.socket.remoteAddress) || !isLoopbackHost(headers.host)) return false;
  if (Object.keys(headers).some((name) => name.startsWith('x-forwarded-') || name === 'forwarded' || name === 'x-real-ip')) return false;
  const origin = headers.origin;
  if (origin === undefined) return true;
  const match = /^https?:\/\/([^/]+)$/.exec(origin);
  return match !== null && isLoopbackHost(match[1]);
}

/** What health, metrics and the dev app's keys read. */
export interface OpsEndpointDeps {
  config: ServerConfig;
  rooms: Pick<RoomRegistry, 'rooms' | 'size'>;
  store: Pick<Store, 'healthy'>;
  metrics: Pick<Metrics, 'text' | 'contentType'>;
  /** Open signalling connections per client address. */
  connections: Pick<ConnectionTracker, 'total'>;
}

/** Health, Prometheus metrics, the OpenAPI document and the dev app's keys. */
export function opsEndpoints(ctx: OpsEndpointDeps): Bindings<'health' | 'metrics' | 'openApi' | 'devApp'> {
  let openapi: Record<string, unknown> | undefined;
  return {
    health: {
      handle: () => {
        let users = 0;
        for (const room of ctx.rooms.rooms()) users += room.size;
        const ok = ctx.store.healthy();
        return new HttpReply(ok ? 200 : 503, {
          status: ok ? 'ok' : 'degraded', rooms: ctx.rooms.size, users, connections: ctx.connections.total,
          storage: ok ? 'ok' : 'failing', uptimeSeconds: Math.round(process.uptime()),
        } as const);
      },
    },
    metrics: {
      handle: async () => new HttpReply(200, await ctx.metrics.text(), { 'content-type': ctx.metrics.contentType }, true),
    },
    openApi: {
      // Generated from the schemas once per process; equal to packages/server/openapi.json (a test checks).
      handle: () => new HttpReply(200, openapi ??= openApiDocument(), { 'cache-control': 'no-cache' }),
    },
    devApp: {
      handle: ({ req }) => {
        // The dev app's key lets anyone sign in as anyone: only hand it to this machine's own browser (no CORS: gateway/gateway.ts).
        if (!ctx.config.devMode || !isLocalRequest(req)) throw new HttpError(404, HTTP_CODE.NOT_FOUND, 'not found: /api/dev/app');
        const app = ctx.config.apps[0];
        return { sdkAppId: app.sdkAppId, secretKey: app.secretKey, adminKey: app.adminKey };
      },
    },
  };
}
