import { LOG_UPLOAD_PATH, STATS_BEACON_PATH, type LogCmdType, type LogUploadBody, type StatsBeaconBody } from '@conclave/protocol';
import { addLogSink, formatEntry, uploadIsEnabled, type LogEntry } from './logger.js';

/** Upload cadence and limits (docs/behaviour.md §7, §9). */
export const LOG_UPLOAD = Object.freeze({
  INTERVAL_MS: 5000,
  MAX_BATCH: 50,
  GZIP_ABOVE_CHARS: 2800,
  RETRIES: 3,
  RETRY_DELAY_MS: 2000,
  TIMEOUT_MS: 5000,
  /** A failure event is uploaded this long after the error event. */
  EVENT_DELAY_MS: 2000,
  /** Lines kept while uploads fail; the oldest go first. */
  MAX_BUFFERED: 1000,
} as const);

/** Counter keys of the key-value statistics (last three digits 0–599: counts, docs/behaviour.md §9). */
export const STAT_KEY = Object.freeze({ ENTER_ROOM: 1, EXIT_ROOM: 2, CUSTOM_MESSAGE: 3, SEI_MESSAGE: 4, ERROR_EVENT: 5 } as const);

/** Who the logs are about. */
export interface LogIdentity {
  /** Origin of the log service (scheduling's loggerDomain, the loggerProxy, or the SDK's server). */
  origin: string;
  sdkAppId: number;
  userId: string;
  version: string;
  roomId?: number;
  strRoomId?: string;
}

/** Gzip with the browser's own CompressionStream; undefined where it is missing or fails (the body goes as text). */
async function gzip(text: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (typeof CompressionStream === 'undefined') return undefined;
  try {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return undefined; // documented above: the body goes as text
  }
}

/** The request of one upload: body bytes or text, and whether it is gzip (above `compressAboveChars`, where the browser can). */
export async function encodeBody(body: LogUploadBody | StatsBeaconBody, compressAboveChars: number): Promise<{ data: string | Uint8Array<ArrayBuffer>; gzip: boolean }> {
  const json = JSON.stringify(body);
  const data = json.length > compressAboveChars ? await gzip(json) : undefined;
  return data ? { data, gzip: true } : { data: json, gzip: false };
}

/** The upload URL for a cmdtype. */
export function uploadUrl(origin: string, sdkAppId: number, cmdType: LogCmdType): string {
  const random = Math.floor(Math.random() * 2 ** 31);
  return `${origin.replace(/\/+$/, '')}${LOG_UPLOAD_PATH}?random=${random}&sdkappid=${sdkAppId}&cmdtype=${cmdType}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** POSTs with a time-out; resolves to whether the server took it (2xx). */
async function post(url: string, body: { data: string | Uint8Array<ArrayBuffer>; gzip: boolean }, timeoutMs: number, keepalive = false): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, {
      method: 'POST',
      body: body.data,
      headers: { 'content-type': 'application/json', ...(body.gzip ? { 'content-encoding': 'gzip' } : {}) },
      signal: controller.signal,
      keepalive,
    });
    return res.ok;
  } catch {
    return false; // not taken (offline, timed out): the caller retries, then keeps the lines for the next batch
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Uploads one client's log lines while it is in a room (docs/behaviour.md §7): every 5 s a batch of at most 50 lines,
 * gzip above 2800 characters, 3 retries 2 s apart, 5 s time-out; the rest on leave. Also the failure-event
 * upload and the key-value statistics beacon.
 */
export class LogUploader {
  private _identity: LogIdentity | undefined;
  /** The latest session's identity, kept after stop for a failure that ends the session. */
  private _lastIdentity: LogIdentity | undefined;
  private readonly _buffer: LogEntry[] = [];
  private _timer: ReturnType<typeof setInterval> | undefined;
  private _removeSink: (() => void) | undefined;
  private _flushing: Promise<void> = Promise.resolve();
  private readonly _counts = new Map<number, number>();

  /** The current session's identity (undefined when stopped). */
  get identity(): LogIdentity | undefined {
    return this._identity;
  }

  /** Starts collecting and uploading for a session. */
  start(identity: LogIdentity): void {
    this._identity = identity;
    this._lastIdentity = identity;
    this._removeSink ??= addLogSink((entry) => {
      this._buffer.push(entry);
      if (this._buffer.length > LOG_UPLOAD.MAX_BUFFERED) this._buffer.splice(0, this._buffer.length - LOG_UPLOAD.MAX_BUFFERED);
    });
    this._timer ??= setInterval(() => void this.flush(false), LOG_UPLOAD.INTERVAL_MS);
  }

  /** Uploads what is buffered: one batch (periodic) or everything (final). Serialised. */
  flush(all: boolean): Promise<void> {
    const identity = this._identity;
    if (!identity) return this._flushing;
    return this._upload(identity, this._buffer, all);
  }

  /** Uploads lines from `buffer` under `identity`, one batch or all of them, after any upload in progress. */
  private _upload(identity: LogIdentity, buffer: LogEntry[], all: boolean): Promise<void> {
    const run = async () => {
      do {
        if (buffer.length === 0 || !uploadIsEnabled()) return;
        const batch = buffer.splice(0, LOG_UPLOAD.MAX_BATCH);
        // The final upload outlives the page (keepalive): an app often closes it right after exitRoom.
        const ok = await this._send(identity, 'jssdk_log', batch.map(formatEntry).join('\n'), undefined, LOG_UPLOAD.RETRIES, all);
        if (!ok) return; // those lines are lost; the server is unreachable
      } while (all);
    };
    this._flushing = this._flushing.then(run, run);
    return this._flushing;
  }

  private async _send(identity: LogIdentity, cmdType: LogCmdType, text: string, errorInfo?: LogUploadBody['errorInfo'], retries: number = LOG_UPLOAD.RETRIES, keepalive = false): Promise<boolean> {
    const body: LogUploadBody = {
      timestamp: Date.now(), sdkAppId: identity.sdkAppId, userId: identity.userId, version: identity.version, log: text,
      ...(identity.strRoomId !== undefined ? { strRoomId: identity.strRoomId } : identity.roomId !== undefined ? { roomId: identity.roomId } : {}),
      ...(errorInfo ? { errorInfo } : {}),
    };
    const encoded = await encodeBody(body, LOG_UPLOAD.GZIP_ABOVE_CHARS);
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(LOG_UPLOAD.RETRY_DELAY_MS);
      if (await post(uploadUrl(identity.origin, identity.sdkAppId, cmdType), encoded, LOG_UPLOAD.TIMEOUT_MS, keepalive)) return true;
    }
    return false;
  }

  /** The failure-event upload: 2 s after an error event, low priority, errors ignored. */
  reportError(error: { message?: string; stack?: string; code?: number }): void {
    const identity = this._identity ?? this._lastIdentity;
    if (!identity || !uploadIsEnabled()) return;
    setTimeout(() => {
      const recent = this._buffer.slice(-LOG_UPLOAD.MAX_BATCH).map(formatEntry).join('\n');
      void this._send(identity, 'jssdk_event', `error ${error.code ?? ''}: ${error.message ?? ''}\n${recent}`,
        { message: error.message?.slice(0, 4096), stack: error.stack?.slice(0, 16384) }, 0).catch(() => undefined); // documented above: errors ignored (logging the log upload would feed it)
    }, LOG_UPLOAD.EVENT_DELAY_MS);
  }

  /** Counts a key for the key-value statistics beacon (keys classed by their last three digits, docs/behaviour.md §9). */
  count(key: number): void {
    this._counts.set(key, (this._counts.get(key) ?? 0) + 1);
  }

  /** Sends the key-value statistics beacon (navigator.sendBeacon, else a keepalive fetch); resolves once handed over. */
  async sendBeacon(): Promise<void> {
    const identity = this._identity;
    if (!identity || !uploadIsEnabled()) return;
    const body: StatsBeaconBody = {
      sdkAppId: identity.sdkAppId,
      userId: identity.userId,
      msg_sdk_basic_info: {
        sdkVersion: identity.version,
        terminalType: 15,
        framework: 'conclave',
        networkType: networkType(),
      },
      stats_count: [...this._counts].map(([key, count]) => ({ key, count })),
    };
    this._counts.clear();
    const url = `${identity.origin.replace(/\/+$/, '')}${STATS_BEACON_PATH}`;
    // Gzip when possible; text/plain keeps the beacon a simple cross-origin request (the server knows gzip by its magic bytes).
    const encoded = await encodeBody(body, 0);
    const sent = typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function'
      && navigator.sendBeacon(url, new Blob([encoded.data], { type: 'text/plain' }));
    if (!sent) void post(url, encoded, 500, true);
  }

  /**
   * Ends the session: sends the beacon and uploads what is left under this session's identity; the
   * uploader is free for the next session at once.
   */
  stop(): Promise<void> {
    clearInterval(this._timer);
    this._timer = undefined;
    this._removeSink?.();
    this._removeSink = undefined;
    const beacon = this.sendBeacon().catch(() => undefined); // reads the identity before it is cleared below
    const identity = this._identity;
    const rest = this._buffer.splice(0);
    this._identity = undefined;
    if (!identity) return beacon;
    return Promise.all([beacon, this._upload(identity, rest, true).catch(() => undefined)]).then(() => undefined); // the last upload is best effort: the session is over
  }
}

/** The browser's network type (docs/behaviour.md §3 network types), best effort. */
function networkType(): number {
  const type = (globalThis.navigator as { connection?: { type?: string; effectiveType?: string } } | undefined)?.connection;
  switch (type?.type ?? type?.effectiveType) {
    case 'wifi': return 1;
    case '3g': return 2;
    case '2g': case 'slow-2g': return 3;
    case '4g': return 4;
    case 'ethernet': return 5;
    default: return 0;
  }
}
