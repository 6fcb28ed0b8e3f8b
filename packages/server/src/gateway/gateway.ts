import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { HTTP_CODE, SIGNAL_PATH } from '@conclave/protocol';
import { HTTP_ROUTES } from '@conclave/protocol/schemas';
import { AdminApi } from '../admin/admin-api.js';
import { CloudApi } from '../cloud-api/cloud-api.js';
import { sdkEndpoints } from '../http/endpoints.js';
import { opsEndpoints } from '../http/ops.js';
import { BODY_READ, clientAddress, sendJson } from '../http/respond.js';
import { Router } from '../http/router.js';
import { scheduleEndpoint } from '../http/schedule.js';
import { staticFiles, type StaticFiles } from '../http/static-files.js';
import type { SignalServer } from '../signal/signal-server.js';
import { createListener } from '../tls/listener.js';
import { WhepApi } from '../whep/whep-api.js';
import { capConnections } from './connection-cap.js';
import type { GatewayDeps } from './gateway-deps.js';
import { nodeRequestChecked } from './node-requests.js';

/**
 * Bounds on slow requests: a request's headers must arrive within headersTimeoutMs and the whole request within
 * requestTimeoutMs, else it is answered 408 and its connection closed (slowloris); Node checks every
 * checkIntervalMs (its default, 30 s, would let a trickle run half a minute over). A body must arrive within
 * bodyTimeoutMs plus a second per bodyBytesPerSecond of its route's limit (respond.ts BODY_READ).
 */
export const HTTP_LIMITS = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  checkIntervalMs: 1_000,
  bodyTimeoutMs: BODY_READ.timeoutMs,
  bodyBytesPerSecond: BODY_READ.bytesPerSecond,
});

/** The dev app's keys: never offered cross-origin (ops.ts answers this machine's own pages only). */
const DEV_APP_PATH = HTTP_ROUTES.devApp.path;

/** Every HTTP route of HTTP_ROUTES bound to its handler. */
export function createRouter(ctx: GatewayDeps): Router {
  return new Router(ctx, { ...scheduleEndpoint(ctx), ...sdkEndpoints(ctx), ...opsEndpoints(ctx), ...new AdminApi(ctx).bindings() });
}

/**
 * The gateway, the server's front door (docs/architecture.md "Layers"): the routes of HTTP_ROUTES (scheduling,
 * log upload, AI-denoise authorisation, the statistics beacon, the admin API, health and metrics, the dev-app
 * keys), TRTC's server API (signed POSTs to /), WHEP and WHIP, the SDK builds at /sdk/, the demo app at /, and
 * the WebSocket upgrade for signalling.
 */
export function createGateway(ctx: GatewayDeps, signal: SignalServer): Server | HttpsServer {
  const sdkFiles: StaticFiles | undefined = ctx.config.sdkDir ? staticFiles(ctx.config.sdkDir) : undefined;
  const demoFiles: StaticFiles | undefined = ctx.config.demoDir ? staticFiles(ctx.config.demoDir, { single: true }) : undefined;
  const router = createRouter(ctx);
  const cloudApi = new CloudApi(ctx);
  const whep = new WhepApi(ctx);
  // The metrics read WHEP's sessions when scraped: WHEP is handed no more of them than its refusal counter.
  ctx.metrics.trackWhep(() => whep.snapshot());

  const server = createListener(ctx.config, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const notFound = () => sendJson(res, 404, { code: HTTP_CODE.NOT_FOUND, message: `not found: ${url.pathname}` });
    // Answered before its body arrived (refused, or a route that reads none): the connection is closed rather
    // than the rest of the body read and thrown away, which a client could make endless.
    res.once('finish', () => {
      if (!req.complete) req.socket.destroySoon();
    });
    // The SDK is loaded cross-origin by apps that embed it; the admin API is key-based (no cookies).
    if (url.pathname !== DEV_APP_PATH) res.setHeader('access-control-allow-origin', '*');
    // The client: as the proxies in front say (trustProxy), or as the node that forwarded the request says.
    const node = nodeRequestChecked(ctx, req, res, url, cloudApi);
    if (!node) return;
    const address = node.client ?? clientAddress(req, ctx.config.trustProxy);
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
      void cloudApi.handle(req, res, url, address);
      return;
    }
    if (ctx.cluster && url.pathname.startsWith('/admin/v1/')) {
      // A cluster node forwards admin requests about rooms on other nodes, and merges every node's room list.
      ctx.cluster.forwardAdmin(req, res, url, address).then((done) => {
        if (!done && !router.handle(req, res, url, address)) notFound();
      }, (err: unknown) => {
        ctx.logger.warn({ err }, 'cluster: admin forwarding failed');
        sendJson(res, 502, { code: HTTP_CODE.NOT_FOUND, message: 'the node hosting this room did not answer' });
      });
      return;
    }
    if (router.handle(req, res, url, address)) return;
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
  capConnections(ctx, server);
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
