import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SCHEDULE_PATH, SIGNAL_PATH } from '@conclave/protocol';
import sirv from 'sirv';
import type { ServerContext } from '../context.js';
import type { SignalServer } from '../signal/signal-server.js';
import { handleSchedule } from './schedule.js';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * The HTTP side: scheduling, health, the dev-app key (dev mode only), the SDK builds at /sdk/,
 * the demo app at /, and the WebSocket upgrade for signalling.
 */
export function createHttpServer(ctx: ServerContext, signal: SignalServer): Server {
  const sdkFiles: Middleware | undefined = ctx.config.sdkDir ? sirv(ctx.config.sdkDir, { dev: true }) : undefined;
  const demoFiles: Middleware | undefined = ctx.config.demoDir ? sirv(ctx.config.demoDir, { single: true, dev: true }) : undefined;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const notFound = () => sendJson(res, 404, { code: 404, msg: `not found: ${url.pathname}` });
    // The SDK is loaded cross-origin by apps that embed it.
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type' });
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
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok', rooms: ctx.rooms.size });
    if (url.pathname === '/api/dev/app') {
      if (!ctx.config.devMode) return notFound();
      const app = ctx.config.apps[0];
      return sendJson(res, 200, { sdkAppId: app.sdkAppId, secretKey: app.secretKey });
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
