import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { configFromEnv, type ServerOverrides } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { EmbeddedEngine } from '../../src/engine/embedded/embedded-engine.js';
import { createLogger } from '../../src/log/logger.js';
import type { Recognizer } from '../../src/transcriber/recognizer.js';
import { WhepApi } from '../../src/whep/whep-api.js';

/** A server context on the embedded engine (loopback ICE), an in-memory store and silent logs unless a logger is given. */
export function embeddedContext(overrides: ServerOverrides, parts: { logger?: Logger; recognizer?: Recognizer } = {}): ServerContext {
  const config = configFromEnv({}, { logLevel: 'silent', ...overrides, storage: { path: ':memory:', ...overrides.storage } });
  return createContext(config, { engine: new EmbeddedEngine({ iceAddress: '127.0.0.1' }), logger: parts.logger ?? createLogger('silent'), ...(parts.recognizer ? { recognizer: parts.recognizer } : {}) });
}

/** Closes what embeddedContext made, the engine included. */
export async function closeEmbeddedContext(ctx: ServerContext | undefined): Promise<void> {
  if (!ctx) return;
  await ctx.engine.close();
  closeContext(ctx);
}

/** WHEP / WHIP of a context on a loopback HTTP server of its own: its base URL, and the close. */
export async function whepServer(ctx: ServerContext): Promise<{ api: WhepApi; base: string; close: () => Promise<void> }> {
  const api = new WhepApi(ctx);
  ctx.metrics.trackWhep(() => api.snapshot()); // as the gateway wires it
  const http: Server = createServer((req, res) => void api.handle(req, res, new URL(req.url ?? '/', 'http://localhost')));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    api,
    base: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: async () => {
      api.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
