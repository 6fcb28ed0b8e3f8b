/**
 * One headless signalling connection: the wire protocol of @conclave/protocol (requests `{id, cmd, data}`,
 * replies by id, pushes) over a real WebSocket from `ws`, no media. What a load test needs and nothing more:
 * it counts what it receives instead of keeping it.
 */
import { LIMITS, SIGNAL_PATH, type Command, type CommandMap, type PushName, type ReplyMessage } from '@conclave/protocol';
import WebSocket from 'ws';

/** A reply as received: any code, with whatever else the server put beside it (e.g. retryAfterMs). */
export type Reply = ReplyMessage & Record<string, unknown>;

/** Counts of what one connection received. */
export interface Received {
  replies: number;
  pushes: number;
  /** Pushes by name. */
  byPush: Partial<Record<PushName, number>>;
}

/** A signalling connection of one simulated user. */
export class SignalClient {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  #nextId = 1;
  readonly received: Received = { replies: 0, pushes: 0, byPush: {} };
  /** The close code once the connection closed. */
  closeCode: number | undefined;
  /** Called on every push (after counting). */
  onPush: ((name: PushName) => void) | undefined;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (raw) => this.#onMessage(raw.toString()));
    socket.on('close', (code) => {
      this.closeCode = code;
      for (const [id, pending] of this.#pending) {
        clearTimeout(pending.timer);
        pending.reject(new Error(`connection closed (${code}) before reply ${id}`));
      }
      this.#pending.clear();
    });
    socket.on('error', () => undefined); // a close follows
  }

  /**
   * Opens the WebSocket at `<server>/signal`, from `localAddress` when given (a 127.x.y.z address, so that
   * many users do not all count against one address's connection limit). Rejects after `timeoutMs`.
   */
  static connect(serverUrl: string, { localAddress, timeoutMs = LIMITS.WS_CONNECT_TIMEOUT_MS }: { localAddress?: string; timeoutMs?: number } = {}): Promise<SignalClient> {
    const socket = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}${SIGNAL_PATH}`, { localAddress, perMessageDeflate: false });
    const client = new SignalClient(socket);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`WebSocket did not open within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve(client);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  get open(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  /** Sends a command; resolves with its reply whatever its code. Rejects on time-out or when the connection closes. */
  request<C extends Command>(cmd: C, data: CommandMap[C]['data'], timeoutMs: number = LIMITS.RESPONSE_TIMEOUT_MS): Promise<Reply> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (!this.open) {
        reject(new Error(`connection not open for ${cmd}`));
        return;
      }
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`no reply to ${cmd} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#socket.send(JSON.stringify({ id, cmd, data }));
    });
  }

  /** Closes the connection (1000: the user went away on purpose). */
  close(code = 1000): void {
    if (this.#socket.readyState === WebSocket.OPEN || this.#socket.readyState === WebSocket.CONNECTING) this.#socket.close(code);
  }

  /** Resolves once the connection is closed (bounded). */
  closed(timeoutMs = 5_000): Promise<void> {
    if (this.#socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#socket.terminate();
        resolve();
      }, timeoutMs);
      this.#socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #onMessage(text: string): void {
    let message: { id?: unknown; push?: unknown };
    try {
      message = JSON.parse(text) as { id?: unknown; push?: unknown };
    } catch {
      return; // the server sends JSON only
    }
    if (typeof message.push === 'string') {
      const name = message.push as PushName;
      this.received.pushes++;
      this.received.byPush[name] = (this.received.byPush[name] ?? 0) + 1;
      this.onPush?.(name);
      return;
    }
    if (typeof message.id !== 'number') return;
    this.received.replies++;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    pending.resolve(message as Reply);
  }
}
