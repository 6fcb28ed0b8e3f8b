import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { LIMITS } from '@conclave/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerContext } from '../context.js';
import { SignalSession } from './session.js';

/**
 * The WebSocket signalling endpoint. Each connection gets a SignalSession; a connection
 * silent for longer than the heartbeat time-out is closed and its user leaves the room.
 */
export class SignalServer {
  readonly #wss: WebSocketServer;
  readonly #ctx: ServerContext;
  readonly #sockets = new Set<WebSocket>();

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: LIMITS.MAX_MESSAGE_BYTES * 2 });
    this.#wss.on('connection', (socket) => this.#accept(socket));
  }

  /** Takes over an HTTP upgrade request for the signalling path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#wss.emit('connection', ws, request));
  }

  #accept(socket: WebSocket): void {
    this.#sockets.add(socket);
    const session = new SignalSession(this.#ctx, {
      send: (text) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      },
      close: (code, reason) => socket.close(code, reason),
    });
    let timer = setTimeout(() => expire(), this.#ctx.config.heartbeatTimeoutMs);
    const expire = () => {
      session.closed('timeout');
      socket.terminate();
    };
    socket.on('message', (raw, isBinary) => {
      clearTimeout(timer);
      timer = setTimeout(expire, this.#ctx.config.heartbeatTimeoutMs);
      const text = isBinary ? '' : raw.toString();
      session.handle(text).catch((err: unknown) => this.#ctx.logger.error({ err }, 'session error'));
    });
    socket.on('close', (code) => {
      clearTimeout(timer);
      this.#sockets.delete(socket);
      // 1000 / 1001: the client closed on purpose (page closed or navigated away). Anything else is a drop.
      session.closed(code === 1000 || code === 1001 ? 'normal' : 'timeout');
    });
    socket.on('error', (err) => this.#ctx.logger.warn({ err }, 'socket error'));
  }

  /** Tells every client the server is going away, then closes their connections. */
  close(): void {
    for (const socket of this.#sockets) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ push: 'server-shutdown', data: {} }));
      socket.close(1001, 'server shutdown');
    }
    this.#wss.close();
  }
}
