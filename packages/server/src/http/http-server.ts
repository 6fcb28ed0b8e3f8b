import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { AI_DENOISE_AUTH_PATH, HTTP_CODE, LOG_UPLOAD_PATH, SCHEDULE_PATH, SIGNAL_PATH, STATS_BEACON_PATH } from '@conclave/protocol';
import sirv from 'sirv';
import { ADMIN_PREFIX, AdminApi } from '../admin/admin-api.js';
import type { ServerContext } from '../context.js';
import type { SignalServer } from '../signal/signal-server.js';
import { handleAiDenoiseAuth, handleLogUpload, handleStatsBeacon } from './endpoints.js';
import { clientAddress, HttpError, sendError, sendJson } from './respond.js';
import { handleSchedule } from './schedule.js';
import { createListener } from '../tls/listener.js';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * The HTTP side: scheduling, log upload, AI-denoise authorisation, the statistics beacon, the admin API,
 * health and metrics, the dev-app keys (dev mode only), the SDK builds at /sdk/, the demo app at /, and
 * the WebSocket upgrade for signalling.
 */
/** True for a client on this machine (IPv4 or IPv6 loopback). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

export function createHttpServer(ctx: ServerContext, signal: SignalServer): Server | HttpsServer {
  const sdkFiles: Middleware | undefined = ctx.config.sdkDir ? sirv(ctx.config.sdkDir, { dev: true }) : undefined;
  const demoFiles: Middleware | undefined = ctx.config.demoDir ? sirv(ctx.config.demoDir, { single: true, dev: true }) : undefined;
  const admin = new AdminApi(ctx);

  const server = createListener(ctx.config, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const notFound = () => sendJson(res, 404, { code: 404, msg: `not found: ${url.pathname}` });
    const address = clientAddress(req, ctx.config.trustProxy);
    /** Runs an endpoint that answers JSON; its HttpErrors become `{code, message}` with their status. */
    const answer = (method: string, run: () => Promise<unknown>) => {
      if (req.method !== method) {
        sendError(ctx, res, new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, `use ${method}`));
        req.resume();
        return;
      }
      run().then((body) => sendJson(res, 200, body), (error: unknown) => sendError(ctx, res, error));
    };
    // The SDK is loaded cross-origin by apps that embed it; the admin API is key-based (no cookies).
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE',
        'access-control-allow-headers': 'content-type, content-encoding, authorization',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (url.pathname === SCHEDULE_PATH) {
      if (req.method !== 'POST') return sendJson(res, 405, { code: 405, msg: 'use POST' });
      handleSchedule(ctx, req).then((body) => sendJson(res, 200, body), (err: unknown) => {
        ctx.logger.error({ err }, 'schedule failed');
        sendJson(res, 500, { code: -1, msg: 'internal error' });
      });
      return;
    }
    if (url.pathname === LOG_UPLOAD_PATH) return answer('POST', () => handleLogUpload(ctx, req, url, address));
    if (url.pathname === STATS_BEACON_PATH) return answer('POST', () => handleStatsBeacon(ctx, req, address));
    if (url.pathname === AI_DENOISE_AUTH_PATH) return answer('GET', () => handleAiDenoiseAuth(ctx, url));
    if (url.pathname.startsWith(ADMIN_PREFIX)) {
      // A cluster node forwards requests about rooms on other nodes, and merges every node's room list.
      const forwarded = ctx.cluster ? ctx.cluster.forwardAdmin(req, res, url) : Promise.resolve(false);
      forwarded.then((done) => done ? undefined : admin.handle(req, res, url, address)).catch((error: unknown) => sendError(ctx, res, error));
      return;
    }
    if (url.pathname === '/healthz') {
      let users = 0;
      for (const room of ctx.rooms.rooms()) users += room.size;
      const storage = ctx.store.healthy() ? 'ok' : 'failing';
      return sendJson(res, storage === 'ok' ? 200 : 503, {
        status: storage === 'ok' ? 'ok' : 'degraded', rooms: ctx.rooms.size, users, connections: ctx.connections.total, storage, uptimeSeconds: Math.round(process.uptime()),
      });
    }
    if (url.pathname === '/metrics') {
      ctx.metrics.text().then((text) => {
        res.writeHead(200, { 'content-type': ctx.metrics.contentType, 'cache-control': 'no-store' });
        res.end(text);
      }, (error: unknown) => sendError(ctx, res, error));
      return;
    }
    if (url.pathname === '/api/dev/app') {
      // The dev app's key lets anyone sign in as anyone: only hand it to this machine's own browser.
      if (!ctx.config.devMode || !isLoopback(req.socket.remoteAddress)) return notFound();
      const app = ctx.config.apps[0];
      return sendJson(res, 200, { sdkAppId: app.sdkAppId, secretKey: app.secretKey, adminKey: app.adminKey });
    }
    if (url.pathname.startsWith('/sdk/') && sdkFiles) {
      req.url = req.url?.slice('/sdk'.length);
      return sdkFiles(req, res, notFound);
    }
    if (url.pathname.startsWith('/api/')) return notFound();
    if (demoFiles) return demoFiles(req, res, notFound);
    notFound();
  });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === SIGNAL_PATH) signal.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  return server;
}
