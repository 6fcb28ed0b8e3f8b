import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { LIMITS, SERVER_CODE } from '@conclave/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SignalDeps } from './signal-deps.js';
import { clientAddress } from '../http/respond.js';
import { SignalSession } from './session.js';

/** Largest WebSocket frame read at all: bigger ones close the connection (1009); up to it, a message over
 * LIMITS.MAX_MESSAGE_BYTES gets a MESSAGE_TOO_LARGE reply and the connection goes on. */
const MAX_FRAME_BYTES = LIMITS.MAX_MESSAGE_BYTES * 16;

/** Sweeps for silent connections per heartbeat time-out. */
const SWEEPS_PER_TIMEOUT = 8;

/** How long a connection over the per-address limit waits for its first request before it is closed. */
const REFUSED_CONNECTION_MS = 10_000;

/** The close code of a connection whose client does not read what it is sent (its send buffer passed the limit). */
export const SEND_BUFFER_CLOSE_CODE = 4008;

/** How long a connection closed for its send buffer has to take the close frame before it is cut. */
const SEND_BUFFER_CLOSE_MS = 1_000;

/**
 * The WebSocket signalling endpoint. Each connection gets a SignalSession; a connection
 * silent for longer than the heartbeat time-out is closed and its user leaves the room.
 * Connections per client address are limited: one over the limit answers its first request with
 * TOO_MANY_CONNECTIONS and is closed, and the address's other connections go on.
 */
export class SignalServer {
  readonly #wss: WebSocketServer;
  readonly #ctx: SignalDeps;
  readonly #sockets = new Set<WebSocket>();
  readonly #refused = new Set<WebSocket>();
  /** When each accepted connection was last heard from. */
  readonly #silence = new Map<WebSocket, { lastHeard: number; session: SignalSession }>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(ctx: SignalDeps) {
    this.#ctx = ctx;
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
    // A silent connection goes between 1 and 1 + 1/SWEEPS_PER_TIMEOUT heartbeat time-outs after its last message.
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, ctx.config.heartbeatTimeoutMs / SWEEPS_PER_TIMEOUT));
    this.#sweeper.unref();
    this.#wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
      if (request.socket.remoteAddress === undefined) {
        // The client gave up while its handshake waited (an overloaded node): nothing to serve or to count.
        socket.terminate();
        return;
      }
      const address = clientAddress(request, ctx.config.trustProxy);
      if (ctx.connections.open(address, ctx.config.limits.connectionsPerIp)) this.#accept(socket, address);
      else this.#refuse(socket, address);
    });
  }

  /** Takes over an HTTP upgrade request for the signalling path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#wss.emit('connection', ws, request));
  }

  #refuse(socket: WebSocket, address: string): void {
    const { connectionsPerIp } = this.#ctx.config.limits;
    this.#ctx.signalObserver.emit({ type: 'connection-refused', reason: 'per-address', code: SERVER_CODE.TOO_MANY_CONNECTIONS });
    this.#ctx.logger.warn({ address, limit: connectionsPerIp }, 'signalling connection refused: too many from this address');
    const message = `too many connections from this address (${connectionsPerIp})`;
    const timer = setTimeout(() => socket.close(4029, 'too many connections'), REFUSED_CONNECTION_MS);
    socket.once('message', (raw, isBinary) => {
      let id = -1;
      try {
        const parsed: unknown = isBinary ? undefined : JSON.parse(raw.toString());
        if (typeof parsed === 'object' && parsed !== null && Number.isSafeInteger((parsed as { id?: unknown }).id)) id = (parsed as { id: number }).id;
      } catch {
        // not JSON: answered with id -1
      }
      socket.send(JSON.stringify({ id, code: SERVER_CODE.TOO_MANY_CONNECTIONS, message }));
      clearTimeout(timer);
      socket.close(4029, 'too many connections');
    });
    this.#refused.add(socket);
    socket.on('close', () => {
      clearTimeout(timer);
      this.#refused.delete(socket);
    });
    socket.on('error', (err) => this.#ctx.logger.warn({ err, address }, 'refused socket error'));
  }

  #accept(socket: WebSocket, address: string): void {
    this.#sockets.add(socket);
    const session = new SignalSession(this.#ctx, {
      send: (text) => {
        if (socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > this.#ctx.config.limits.signalSendBufferBytes) this.#overflow(socket, address);
        else socket.send(text);
      },
      close: (code, reason) => socket.close(code, reason),
      address,
    });
    this.#silence.set(socket, { lastHeard: performance.now(), session });
    socket.on('message', (raw, isBinary) => {
      const entry = this.#silence.get(socket);
      if (entry) entry.lastHeard = performance.now();
      const text = isBinary ? '' : raw.toString();
      session.handle(text).catch((err: unknown) => this.#ctx.logger.error({ err }, 'session error'));
    });
    socket.on('close', (code) => {
      this.#silence.delete(socket);
      this.#sockets.delete(socket);
      this.#ctx.connections.close(address);
      // 1000 / 1001: the client closed on purpose (page closed or navigated away). Anything else is a drop.
      session.closed(code === 1000 || code === 1001 ? 'normal' : 'timeout');
    });
    socket.on('error', (err) => this.#ctx.logger.warn({ err }, 'socket error'));
  }

  /**
   * A client that does not read what it is sent (its queued bytes passed limits.signalSendBufferBytes): the
   * connection is closed with SEND_BUFFER_CLOSE_CODE, counted, and cut if it does not take the close frame
   * either, so an idle reader holds no more than the limit of the node's memory.
   */
  #overflow(socket: WebSocket, address: string): void {
    this.#ctx.signalObserver.emit({ type: 'connection-closed', reason: 'send buffer full' });
    this.#ctx.logger.warn({ address, bufferedBytes: socket.bufferedAmount, limit: this.#ctx.config.limits.signalSendBufferBytes }, 'signalling connection closed: the client does not read');
    socket.close(SEND_BUFFER_CLOSE_CODE, 'send buffer full');
    setTimeout(() => socket.terminate(), SEND_BUFFER_CLOSE_MS).unref();
  }

  /**
   * Closes the connections silent for longer than the heartbeat time-out (their users leave after the grace).
   * One sweep for all connections rather than a timer re-armed on every message: with thousands of users
   * beating every 2 s, re-arming was a measurable share of the signalling CPU (bench signal-load).
   */
  #sweep(): void {
    const deadline = performance.now() - this.#ctx.config.heartbeatTimeoutMs;
    for (const [socket, entry] of this.#silence) {
      if (entry.lastHeard > deadline) continue;
      this.#silence.delete(socket);
      entry.session.closed('timeout');
      socket.terminate();
    }
  }

  /** Tells every client the server is going away, then closes their connections. */
  close(): void {
    clearInterval(this.#sweeper);
    for (const socket of this.#sockets) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ push: 'server-shutdown', data: {} }));
      socket.close(1001, 'server shutdown');
    }
    for (const socket of this.#refused) socket.terminate();
    this.#wss.close();
  }
}
