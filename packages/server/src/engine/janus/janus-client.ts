import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/** A JSEP object as Janus sends and takes it. */
export interface Jsep {
  type: 'offer' | 'answer';
  sdp: string;
  /** false: the SDP already carries every candidate, none will be trickled. */
  trickle?: boolean;
}

/** What a plugin answered: its data, and a JSEP when the request negotiated. */
export interface PluginReply {
  data: Record<string, unknown>;
  jsep?: Jsep;
}

/** An event Janus pushed for a handle outside any request (e.g. an 'updated' offer, hangup). */
export interface HandleEvent {
  janus: string;
  data?: Record<string, unknown>;
  jsep?: Jsep;
  /** 'media' events: the m-line and whether media flows on it. */
  mid?: string;
  receiving?: boolean;
  /** 'hangup' events: why. */
  reason?: string;
}

/** Raised for an error Janus or its plugin reported. */
export class JanusError extends Error {
  override name = 'JanusError';
  constructor(readonly code: number, message: string) {
    super(`Janus ${code}: ${message}`);
  }
}

interface Pending {
  resolve: (message: JanusMessage) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface JanusMessage {
  janus: string;
  transaction?: string;
  session_id?: number;
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: Jsep;
  mid?: string;
  receiving?: boolean;
}

/** How long one request may take before it fails. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Janus drops a session that says nothing for its session_timeout (60 s); we ping well inside it. */
const KEEPALIVE_MS = 20_000;

/**
 * The Janus WebSocket API, the small part Conclave needs: one session, plugin handles, requests
 * matched to replies by transaction (an 'ack' means "the answer comes later as an event"), and
 * handle events routed to the handle's listener. Every request carries the API secret.
 */
export class JanusClient {
  readonly #ws: WebSocket;
  readonly #secret: string | undefined;
  readonly #pending = new Map<string, Pending>();
  readonly #listeners = new Map<number, (event: HandleEvent) => void>();
  #sessionId = 0;
  #keepalive: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  #onClose: (() => void) | undefined;

  private constructor(ws: WebSocket, secret: string | undefined) {
    this.#ws = ws;
    this.#secret = secret;
    ws.on('message', (raw: WebSocket.RawData) => this.#receive(String(raw)));
    ws.on('close', () => this.#closedByPeer());
    ws.on('error', () => undefined);
  }

  /** Connects to `url` (ws://…) and creates a session. */
  static async connect(url: string, secret?: string, timeoutMs = 5000): Promise<JanusClient> {
    const ws = new WebSocket(url, 'janus-protocol');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error(`no answer from Janus at ${url} within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const client = new JanusClient(ws, secret);
    try {
      const created = await client.#request({ janus: 'create' });
      client.#sessionId = created.data?.id ?? 0;
    } catch (error) {
      client.close();
      throw error;
    }
    client.#keepalive = setInterval(() => {
      // A session Janus dropped for want of keepalives ends its connection: the engine logs that loss (#lost).
      client.#request({ janus: 'keepalive', session_id: client.#sessionId }).catch(() => undefined);
    }, KEEPALIVE_MS);
    client.#keepalive.unref();
    return client;
  }

  /** Called once when the connection to Janus is lost (not after close()). */
  onClose(listener: () => void): void {
    this.#onClose = listener;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Plugin handles attached and not detached (what this server holds in Janus). */
  get handles(): number {
    return this.#listeners.size;
  }

  /** Attaches a handle of `plugin`; `onEvent` receives its unsolicited events. Resolves to the handle id. */
  async attach(plugin: string, onEvent: (event: HandleEvent) => void): Promise<number> {
    const reply = await this.#request({ janus: 'attach', session_id: this.#sessionId, plugin });
    const handleId = reply.data?.id;
    if (!handleId) throw new JanusError(0, 'attach returned no handle id');
    this.#listeners.set(handleId, onEvent);
    return handleId;
  }

  /** Detaches a handle (its peer connection closes); errors are ignored (Janus may have gone already). */
  detach(handleId: number): void {
    this.#listeners.delete(handleId);
    if (this.#closed) return;
    // A handle Janus removed already (its peer hung up) refuses the detach: it is gone either way.
    this.#request({ janus: 'detach', session_id: this.#sessionId, handle_id: handleId }).catch(() => undefined);
  }

  /** Sends a plugin request; resolves with the plugin's answer (after its 'ack', if any). */
  async message(handleId: number, body: Record<string, unknown>, jsep?: Jsep): Promise<PluginReply> {
    const reply = await this.#request({ janus: 'message', session_id: this.#sessionId, handle_id: handleId, body, ...(jsep ? { jsep } : {}) });
    const data = reply.plugindata?.data ?? {};
    if (typeof data.error_code === 'number') throw new JanusError(data.error_code, String(data.error ?? 'plugin error'));
    return { data, ...(reply.jsep ? { jsep: reply.jsep } : {}) };
  }

  /** Closes the session and the connection. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepalive);
    if (this.#ws.readyState === WebSocket.OPEN && this.#sessionId) {
      this.#ws.send(JSON.stringify({ janus: 'destroy', session_id: this.#sessionId, transaction: 'bye', apisecret: this.#secret }));
    }
    this.#ws.close();
    this.#failPending(new Error('Janus connection closed'));
  }

  #request(message: Record<string, unknown>): Promise<JanusMessage> {
    if (this.#closed || this.#ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('Janus connection closed'));
    const transaction = randomBytes(8).toString('hex');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(transaction);
        reject(new Error(`Janus did not answer '${String(message.janus)}' in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.#pending.set(transaction, { resolve, reject, timer });
      this.#ws.send(JSON.stringify({ ...message, transaction, ...(this.#secret ? { apisecret: this.#secret } : {}) }));
    });
  }

  #receive(text: string): void {
    let message: JanusMessage;
    try {
      message = JSON.parse(text) as JanusMessage;
    } catch {
      return; // Janus speaks JSON only: a frame that is not is no message, and no request waits on it
    }
    const pending = message.transaction ? this.#pending.get(message.transaction) : undefined;
    if (pending) {
      if (message.janus === 'ack') return; // the answer follows as an event with the same transaction
      this.#pending.delete(message.transaction!);
      clearTimeout(pending.timer);
      if (message.janus === 'error') pending.reject(new JanusError(message.error?.code ?? 0, message.error?.reason ?? 'error'));
      else pending.resolve(message);
      return;
    }
    if (message.sender === undefined) return;
    const listener = this.#listeners.get(message.sender);
    if (!listener) return;
    listener({
      janus: message.janus,
      ...(message.plugindata ? { data: message.plugindata.data } : {}),
      ...(message.jsep ? { jsep: message.jsep } : {}),
      ...(message.mid !== undefined ? { mid: message.mid } : {}),
      ...(message.receiving !== undefined ? { receiving: message.receiving } : {}),
    });
  }

  #failPending(error: Error): void {
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }

  #closedByPeer(): void {
    clearInterval(this.#keepalive);
    this.#failPending(new Error('Janus connection lost'));
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose?.();
  }
}
