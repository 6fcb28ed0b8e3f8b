/**
 * A bare signalling client for the fuzzers (what an attacker's script can send over the WebSocket): raw text with a
 * chosen request id, replies by id, pushes by name. Every wait is bounded. tests/fuzz builds against the server's
 * dist; the server's own test client (packages/server/test/support/clients.ts) is its test wing's, not shared
 * (what test projects share is the test kit, tests/kit).
 */
import { CDN_CODE, CROSS_ROOM_CODE, SERVER_CODE, TRANSCRIBER_CODE } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import WebSocket from 'ws';
import { socketClosed } from '../kit/socket-closed.js';

/** Every code a reply may carry: the protocol's catalogues. */
export const KNOWN_CODES: ReadonlySet<number> = new Set([SERVER_CODE, CDN_CODE, TRANSCRIBER_CODE, CROSS_ROOM_CODE].flatMap((codes) => Object.values(codes)));

/** A reply with a code of the catalogues, not INTERNAL (an unexpected failure), and a message. */
export function isCodedReply(reply: Reply): boolean {
  return KNOWN_CODES.has(reply.code) && reply.code !== SERVER_CODE.INTERNAL && typeof reply.message === 'string';
}

export interface Reply {
  id: number;
  code: number;
  message: string;
  data?: unknown;
}

export interface Push {
  push: string;
  data: unknown;
}

/** An app the fuzz signs for. */
export interface FuzzApp {
  sdkAppId: number;
  secretKey: string;
}

export class SignalClient {
  readonly socket: WebSocket;
  readonly replies = new Map<number, Reply>();
  readonly pushes: Push[] = [];
  /** Replies without a usable id (an envelope the server could not read): id -1. */
  readonly unnumbered: Reply[] = [];
  /** The close code, once closed. */
  closeCode: number | undefined;
  #nextId = 1;
  #waiters = new Set<() => void>();
  readonly #pushListeners = new Set<(push: Push) => void>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as Reply | Push;
      if ('push' in message) {
        this.pushes.push(message);
        for (const listener of this.#pushListeners) listener(message);
      } else if (message.id === -1) this.unnumbered.push(message);
      else this.replies.set(message.id, message);
      for (const wake of this.#waiters) wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const wake of this.#waiters) wake();
    });
    socket.on('error', () => undefined);
  }

  static async connect(baseUrl: string): Promise<SignalClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/signal`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new SignalClient(socket);
  }

  get open(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** A fresh request id (never reused on this connection). */
  nextId(): number {
    return this.#nextId++;
  }

  sendRaw(text: string | Buffer): void {
    this.socket.send(text);
  }

  /** Waits (bounded) until `check` returns a value; undefined when the connection closed first. */
  async until<T>(check: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T | undefined> {
    const now = check();
    if (now !== undefined || !this.open) return now;
    return new Promise((resolve, reject) => {
      const wake = () => {
        const value = check();
        if (value === undefined && this.open) return;
        this.#waiters.delete(wake);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      this.#waiters.add(wake);
    });
  }

  /** The reply to request `id`; undefined when the server closed the connection instead. */
  reply(id: number, timeoutMs?: number): Promise<Reply | undefined> {
    return this.until(() => this.replies.get(id), `reply ${id}`, timeoutMs);
  }

  /** Sends a request and waits for its reply (throws when the connection closes first). */
  async request(cmd: string, data: unknown, timeoutMs?: number): Promise<Reply> {
    const id = this.nextId();
    this.sendRaw(JSON.stringify({ id, cmd, data }));
    const reply = await this.reply(id, timeoutMs);
    if (!reply) throw new Error(`connection closed before the reply to ${cmd}`);
    return reply;
  }

  /** Waits for a push named `name` matching `match` (among all received, old ones included). */
  async push(name: string, match: (data: unknown) => boolean = () => true, timeoutMs?: number): Promise<Push> {
    const found = await this.until(() => this.pushes.find((p) => p.push === name && match(p.data)), `push ${name}`, timeoutMs);
    if (!found) throw new Error(`connection closed while waiting for push ${name}`);
    return found;
  }

  /** Sends a heartbeat every 2 s, as the SDK does, until closed (a silent connection is dropped after the heartbeat time-out). */
  keepAlive(): this {
    const timer = setInterval(() => {
      if (this.open) this.sendRaw(JSON.stringify({ id: this.nextId(), cmd: 'heartbeat', data: {} }));
    }, 2_000);
    this.socket.once('close', () => clearInterval(timer));
    return this;
  }

  /** Calls `listener` with every push from now on; returns its removal. */
  onPush(listener: (push: Push) => void): () => void {
    this.#pushListeners.add(listener);
    return () => this.#pushListeners.delete(listener);
  }

  /** Waits (bounded) for the connection to close; resolves with its close code. */
  closed(timeoutMs = 10_000): Promise<number> {
    return socketClosed(this.socket, this.closeCode, timeoutMs);
  }

  close(): void {
    this.socket.close();
  }
}

/** A join's data for `userId` in integer room `roomId` of `app`, signed. */
export async function joinData(app: FuzzApp, userId: string, roomId: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return {
    sdkAppId: app.sdkAppId, userId, userSig: await genUserSig({ ...app, userId }), roomId, useStringRoomId: false,
    trtcRole: 20, trtcScene: 1, version: '5.17.1', ua: 'fuzz', terminalType: 15, ...extra,
  };
}

/** A client joined to a room (throws on a refusal). */
export async function joinedClient(baseUrl: string, app: FuzzApp, userId: string, roomId: string): Promise<SignalClient> {
  const client = await SignalClient.connect(baseUrl);
  const reply = await client.request('join', await joinData(app, userId, roomId));
  if (reply.code !== 0) throw new Error(`join of ${userId} failed: ${reply.code} ${reply.message}`);
  return client;
}

/** The HTTP status of a GET (0 when the server does not answer). */
export async function httpStatus(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
