import {
  isPush, LIMITS,
  type Command, type CommandMap, type PushMap, type PushName, type ServerMessage,
} from '@conclave/protocol';
import { Emitter } from '../common/emitter.js';
import { log } from '../log/logger.js';

/** A reply with a non-zero code. */
export class SignalReplyError extends Error {
  /** @param data what the refusal carries (JOIN_THROTTLED: the wait and the ticket). */
  constructor(readonly command: Command, readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = 'SignalReplyError';
  }
}

/** The channel is closed or timed out. */
export class SignalChannelError extends Error {
  constructor(message: string, readonly reason: 'timeout' | 'closed' | 'connect' | 'protocol') {
    super(message);
    this.name = 'SignalChannelError';
  }
}

type PushHandlers = { [P in PushName]: (data: PushMap[P]) => void };
interface ChannelEvents extends PushHandlers {
  /** The socket closed without close() being called. */
  lost: (reason: string) => void;
}

interface Pending {
  resolve: (data: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  cmd: Command;
}

/**
 * The WebSocket signalling channel: request/reply with ids and time-outs, server pushes,
 * and a heartbeat every 2 s so the server can tell a live client from a vanished one.
 */
export class SignalChannel extends Emitter<ChannelEvents> {
  private readonly _url: string;
  private _socket: WebSocket | undefined;
  private _nextId = 1;
  private readonly _pending = new Map<number, Pending>();
  private _heartbeat: ReturnType<typeof setInterval> | undefined;
  private _closedByUs = false;
  private _lastMessageAt = 0;
  private _lost = false;
  private _rttMs: number | undefined;

  constructor(url: string) {
    super();
    this._url = url;
  }

  /** Opens the socket; rejects on error or after the connect time-out. */
  connect(timeoutMs: number = LIMITS.WS_CONNECT_TIMEOUT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      let socket: WebSocket;
      try {
        socket = new WebSocket(this._url);
      } catch (error) {
        reject(new SignalChannelError(`cannot open ${this._url}: ${(error as Error).message}`, 'connect'));
        return;
      }
      this._socket = socket;
      const timer = setTimeout(() => {
        socket.close();
        reject(new SignalChannelError(`websocket connect time-out (${timeoutMs} ms)`, 'timeout'));
      }, timeoutMs);
      socket.onopen = () => {
        clearTimeout(timer);
        this._startHeartbeat();
        resolve();
      };
      socket.onerror = () => {
        clearTimeout(timer);
        reject(new SignalChannelError(`cannot connect to ${this._url}`, 'connect'));
      };
      socket.onmessage = (event) => {
        this._lastMessageAt = Date.now();
        this._onMessage(event.data);
      };
      socket.onclose = (event) => {
        clearTimeout(timer);
        this._declareLost(event.reason || `code ${event.code}`);
      };
    });
  }

  /** Sends a command and resolves with the reply data; rejects with SignalReplyError or SignalChannelError. */
  request<C extends Command>(cmd: C, data: CommandMap[C]['data'], timeoutMs: number = LIMITS.RESPONSE_TIMEOUT_MS): Promise<CommandMap[C]['reply']> {
    const socket = this._socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new SignalChannelError('signal channel is not open', 'closed'));
    }
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this._pending.delete(id);
        reject(new SignalChannelError(`${cmd} timed out after ${timeoutMs} ms`, 'timeout'));
      }, timeoutMs);
      this._pending.set(id, { resolve: resolve as (d: unknown) => void, reject, timer, cmd });
      socket.send(JSON.stringify({ id, cmd, data }));
    });
  }

  /** Round trip of the last answered heartbeat in ms (undefined before the first): signalling's RTT for relay switching. */
  get rttMs(): number | undefined {
    return this._rttMs;
  }

  get isOpen(): boolean {
    return this._socket?.readyState === WebSocket.OPEN;
  }

  /**
   * Checks a channel that looks open (the network came back, the page woke up): a heartbeat unanswered within
   * `timeoutMs` declares it lost at once instead of after the ping time-out.
   */
  checkAlive(timeoutMs = 3_000): void {
    if (!this.isOpen) return;
    this.request('heartbeat', {}, timeoutMs).catch((error: unknown) => {
      if (error instanceof SignalChannelError && error.reason === 'timeout') this._declareLost('no answer after a wake-up');
    });
  }

  /** Closes the channel; pending requests fail. */
  close(): void {
    this._closedByUs = true;
    this._stopHeartbeat();
    this._socket?.close(1000, 'bye');
    this._failPending(new SignalChannelError('signal channel closed', 'closed'));
  }

  private _onMessage(raw: unknown): void {
    let msg: ServerMessage;
    try {
      if (typeof raw !== 'string') throw new Error('not text');
      msg = JSON.parse(raw) as ServerMessage;
      if (typeof msg !== 'object' || msg === null) throw new Error('not an object');
    } catch (error) {
      this._unparsable(raw, error);
      return;
    }
    if (isPush(msg)) {
      (this.emit as (e: PushName, d: unknown) => void)(msg.push, msg.data);
      return;
    }
    const pending = this._pending.get(msg.id);
    if (!pending) return;
    this._pending.delete(msg.id);
    clearTimeout(pending.timer);
    if (msg.code === 0) pending.resolve(msg.data ?? {});
    else pending.reject(new SignalReplyError(pending.cmd, msg.code, msg.message, msg.data));
  }

  /**
   * A message that is not JSON: logged and dropped; when it still names the id of a request in
   * flight, that request fails now rather than at its time-out.
   */
  private _unparsable(raw: unknown, error: unknown): void {
    const text = typeof raw === 'string' ? raw : `(${typeof raw})`;
    log.warn(`unparsable signalling message dropped (${(error as Error)?.message ?? String(error)}):`, text.slice(0, 200));
    const id = /"id"\s*:\s*(\d+)/.exec(text)?.[1];
    const pending = id === undefined ? undefined : this._pending.get(Number(id));
    if (!pending || id === undefined) return;
    this._pending.delete(Number(id));
    clearTimeout(pending.timer);
    pending.reject(new SignalChannelError(`unparsable reply to '${pending.cmd}'`, 'protocol'));
  }

  private _failPending(error: Error): void {
    for (const pending of this._pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this._pending.clear();
  }

  /**
   * Pings every 2 s; when nothing at all has come from the server for the ping time-out (18 s),
   * the channel is declared lost even though the socket may look open (a silent network drop).
   */
  private _startHeartbeat(): void {
    this._lastMessageAt = Date.now();
    this._heartbeat = setInterval(() => {
      if (Date.now() - this._lastMessageAt > LIMITS.PING_TIMEOUT_MS) {
        this._declareLost('ping time-out');
        return;
      }
      const sentAt = performance.now();
      this.request('heartbeat', {}).then(() => {
        this._rttMs = performance.now() - sentAt;
      }, () => undefined); // a lost heartbeat: the PING_TIMEOUT_MS check above judges the link
    }, LIMITS.PING_INTERVAL_MS);
  }

  /** The channel is gone: fail what waits, close the socket, tell the room once. */
  private _declareLost(reason: string): void {
    this._stopHeartbeat();
    this._failPending(new SignalChannelError('signal channel closed', 'closed'));
    if (this._closedByUs || this._lost) return;
    this._lost = true;
    const socket = this._socket;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      socket.onclose = null;
      socket.close(4000, reason);
    }
    this.emit('lost', reason);
  }

  private _stopHeartbeat(): void {
    clearInterval(this._heartbeat);
    this._heartbeat = undefined;
  }
}
