import type { IncomingMessage, Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { isTrustedProxy } from '../http/client-address.js';
import { ConnectionTracker } from '../limits/connection-tracker.js';
import type { GatewayDeps } from './gateway-deps.js';

/**
 * At most limits.httpConnectionsPerIp open HTTP connections per client address (docs/architecture.md "Slow
 * requests and connections"), and never fewer than limits.connectionsPerIp, since each signalling WebSocket is an
 * HTTP connection until it is upgraded; an upgraded one counts under signalling's own limit instead. Past it a
 * new connection is closed at once, before anything is read, and counted (conclave_connections_refused_total
 * {reason="http-per-address"}). A trusted proxy's connections are not capped here: they carry many clients (cap
 * them at the proxy).
 */
export function capConnections(ctx: Pick<GatewayDeps, 'config' | 'metrics'>, server: Server | HttpsServer): void {
  const open = new ConnectionTracker();
  // By remote address and port: the same for a TLS connection's raw socket and the TLSSocket an upgrade hands over.
  const counted = new Map<string, string>();
  const { trustProxy, limits } = ctx.config;
  const limit = Math.max(limits.httpConnectionsPerIp, limits.connectionsPerIp);
  const keyOf = (socket: Socket) => `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;
  const release = (key: string) => {
    const address = counted.get(key);
    if (address === undefined) return;
    counted.delete(key);
    open.close(address);
  };
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (isTrustedProxy(address, trustProxy)) return;
    if (!open.open(address, limit)) {
      ctx.metrics.connectionRefused('http-per-address');
      // A reset, not a close: clients see a refused connection at once (a plain close can look like a dropped keep-alive to retry).
      socket.resetAndDestroy();
      return;
    }
    const key = keyOf(socket);
    counted.set(key, address);
    socket.once('close', () => release(key));
  });
  server.on('upgrade', (_req: IncomingMessage, socket: Socket) => release(keyOf(socket)));
}
