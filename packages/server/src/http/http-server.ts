import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { HTTP_CODE, SIGNAL_PATH } from '@conclave/protocol';
import sirv from 'sirv';
import { AdminApi } from '../admin/admin-api.js';
import { CloudApi } from '../cloud-api/cloud-api.js';
import type { HttpDeps } from './http-deps.js';
import type { SignalServer } from '../signal/signal-server.js';
import { sdkEndpoints } from './endpoints.js';
import { opsEndpoints } from './ops.js';
import { clientAddress, sendJson } from './respond.js';
import { Router } from './router.js';
import { scheduleEndpoint } from './schedule.js';
import { createListener } from '../tls/listener.js';
import { WhepApi } from '../whep/whep-api.js';

/**
 * Bounds on slow requests: a request's headers must arrive within headersTimeoutMs and the whole request within
 * requestTimeoutMs, else it is answered 408 and its connection closed (slowloris); Node checks every
 * checkIntervalMs (its default, 30 s, would let a trickle run half a minute over).
 */
export const HTTP_LIMITS = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  checkIntervalMs: 1_000,
});

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Every HTTP route of HTTP_ROUTES bound to its handler. */
export function createRouter(ctx: HttpDeps): Router {
  return new Router(ctx, { ...scheduleEndpoint(ctx), ...sdkEndpoints(ctx), ...opsEndpoints(ctx), ...new AdminApi(ctx).bindings() });
}

/**
 * The HTTP side: the routes of HTTP_ROUTES (scheduling, log upload, AI-denoise authorisation, the
 * statistics beacon, the admin API, health and metrics, the dev-app keys), TRTC's server API (signed POSTs
 * to /), the SDK builds at /sdk/, the demo app at /, and the WebSocket upgrade for signalling.
 */
export function createHttpServer(ctx: HttpDeps, signal: SignalServer): Server | HttpsServer {
  const sdkFiles: Middleware | undefined = ctx.config.sdkDir ? sirv(ctx.config.sdkDir, { dev: true }) : undefined;
  const demoFiles: Middleware | undefined = ctx.config.demoDir ? sirv(ctx.config.demoDir, { single: true, dev: true }) : undefined;
  const router = createRouter(ctx);
  const cloudApi = new CloudApi(ctx);
  const whep = new WhepApi(ctx);

  const server = createListener(ctx.config, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const notFound = () => sendJson(res, 404, { code: HTTP_CODE.NOT_FOUND, message: `not found: ${url.pathname}` });
    // Answered before its body arrived (refused, or a route that reads none): the connection is closed rather
    // than the rest of the body read and thrown away, which a client could make endless.
    res.once('finish', () => {
      if (!req.complete) req.socket.destroySoon();
    });
    // The SDK is loaded cross-origin by apps that embed it; the admin API is key-based (no cookies).
    res.setHeader('access-control-allow-origin', '*');
    if (WhepApi.wants(url.pathname)) return void whep.handle(req, res, url); // WHEP playback, WHIP ingest
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE',
        'access-control-allow-headers': 'content-type, content-encoding, authorization',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (CloudApi.wants(req, url.pathname)) {
      // TRTC's server API (TencentCloud API 3.0) has a single endpoint: every action is a signed POST to /.
      void cloudApi.handle(req, res, url, clientAddress(req, ctx.config.trustProxy));
      return;
    }
    if (ctx.cluster && url.pathname.startsWith('/admin/v1/')) {
      // A cluster node forwards admin requests about rooms on other nodes, and merges every node's room list.
      ctx.cluster.forwardAdmin(req, res, url).then((done) => {
        if (!done && !router.handle(req, res, url, clientAddress(req, ctx.config.trustProxy))) notFound();
      }, (err: unknown) => {
        ctx.logger.warn({ err }, 'cluster: admin forwarding failed');
        sendJson(res, 502, { code: HTTP_CODE.NOT_FOUND, message: 'the node hosting this room did not answer' });
      });
      return;
    }
    if (router.handle(req, res, url, clientAddress(req, ctx.config.trustProxy))) return;
    if (url.pathname.startsWith('/sdk/') && sdkFiles) {
      req.url = req.url?.slice('/sdk'.length);
      return sdkFiles(req, res, notFound);
    }
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/admin/')) {
      ctx.metrics.error('http', HTTP_CODE.NOT_FOUND);
      return notFound();
    }
    if (demoFiles) return demoFiles(req, res, notFound);
    notFound();
  });

  server.on('close', () => whep.close());
  server.headersTimeout = HTTP_LIMITS.headersTimeoutMs;
  server.requestTimeout = HTTP_LIMITS.requestTimeoutMs;
  // Read when the server starts listening (below, in startServer), so setting it here takes effect.
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = HTTP_LIMITS.checkIntervalMs;
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === SIGNAL_PATH) signal.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  return server;
}
