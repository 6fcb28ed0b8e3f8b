/**
 * Test helpers (not built into dist): a server on a loopback port with an in-memory store, a bare
 * protocol client over a real WebSocket, and JSON over HTTP. Every wait is bounded and on a condition.
 */
import type { PushMessage, ReplyMessage } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import WebSocket from 'ws';
import { socketClosed } from '../../../../tests/kit/socket-closed.js';
import type { ServerOverrides } from '../../src/config/config.js';
import { startServer, type RunningServer } from '../../src/server.js';

export type ServerMessage = ReplyMessage | PushMessage;

/** Starts a server on 127.0.0.1:0 with an in-memory store and silent logs. */
export function startTestServer(overrides: ServerOverrides = {}): Promise<RunningServer> {
  return startServer({
    port: 0, host: '127.0.0.1', devMode: false, logLevel: 'silent', iceAddress: '127.0.0.1', ...overrides,
    storage: { path: ':memory:', ...overrides.storage },
  }, {});
}

/** Resolves when `check` returns a value, re-checking on every `emitter` message; rejects after `timeoutMs`. */
function waitOn<T>(socket: WebSocket, check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const now = check();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const done = () => {
      socket.off('message', onMessage);
      socket.off('close', onClose);
      clearTimeout(timer);
    };
    const onMessage = () => {
      const value = check();
      if (value !== undefined) {
        done();
        resolve(value);
      }
    };
    const onClose = () => {
      // Messages that arrived with the close were handled already; give up on anything else.
      const value = check();
      done();
      if (value !== undefined) resolve(value);
      else reject(new Error(`connection closed while waiting for ${what}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    socket.on('message', onMessage);
    socket.on('close', onClose);
  });
}

/** A bare signalling client: what an SDK (or an attacker) can send, and everything it receives. */
export class WsClient {
  readonly socket: WebSocket;
  readonly messages: ServerMessage[] = [];
  closeCode: number | undefined;
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw) => {
      try {
        this.messages.push(JSON.parse(raw.toString()) as ServerMessage);
      } catch {
        // the server only sends JSON
      }
    });
    socket.on('close', (code) => { this.closeCode = code; });
    socket.on('error', () => undefined);
  }

  static async connect(server: { url: string }): Promise<WsClient> {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/signal`);
    const client = new WsClient(socket);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return client;
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends raw text (or bytes). */
  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** Sends a request and resolves with its reply. */
  async request(cmd: string, data: unknown, timeoutMs = 10_000): Promise<ReplyMessage> {
    const id = this.#nextId++;
    this.socket.send(JSON.stringify({ id, cmd, data }));
    return this.reply(id, timeoutMs);
  }

  /** The reply with this id, waiting for it. */
  reply(id: number, timeoutMs = 10_000): Promise<ReplyMessage> {
    return waitOn(this.socket, () => this.messages.find((m): m is ReplyMessage => 'id' in m && m.id === id), timeoutMs, `reply ${id}`);
  }

  pushes(name: string): PushMessage[] {
    return this.messages.filter((m): m is PushMessage => 'push' in m && m.push === name);
  }

  /** Waits for a push matching `pred`. */
  waitForPush(name: string, pred: (p: PushMessage) => boolean = () => true, timeoutMs = 10_000): Promise<PushMessage> {
    return waitOn(this.socket, () => this.pushes(name).find(pred), timeoutMs, `push ${name}`);
  }

  /** Waits for the connection to close; resolves with the close code. */
  closed(timeoutMs = 10_000): Promise<number> {
    return socketClosed(this.socket, this.closeCode, timeoutMs);
  }

  close(): void {
    this.socket.close();
  }
}

/** A join request's data. */
export async function joinData(app: { sdkAppId: number; secretKey: string }, userId: string, roomId: string, extra: Record<string, unknown> = {}) {
  return {
    sdkAppId: app.sdkAppId, userId, userSig: await genUserSig({ ...app, userId }), roomId, useStringRoomId: false,
    trtcRole: 20, trtcScene: 1, version: '5.10.1', ua: 'test', terminalType: 15, ...extra,
  };
}

/** A client joined to a room (asserting success). */
export async function joined(server: { url: string }, app: { sdkAppId: number; secretKey: string }, userId: string, roomId: string, extra: Record<string, unknown> = {}): Promise<WsClient> {
  const client = await WsClient.connect(server);
  const reply = await client.request('join', await joinData(app, userId, roomId, extra));
  if (reply.code !== 0) throw new Error(`join of ${userId} failed: ${reply.code} ${reply.message}`);
  return client;
}

/** The server's Prometheus metrics text. */
export async function metricsText(server: { url: string }): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

/** An HTTP request; resolves with the status and the parsed JSON body (or the text). */
export async function httpJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { status: response.status, body, text, headers: response.headers };
}
