import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { SERVER_CODE, HTTP_CODE } from '@conclave/protocol';
import type { Logger } from 'pino';
import type { Metrics } from '../ops/metrics.js';
import { StoreFullError } from '../store/store.js';

const gunzipAsync = promisify(gunzip);

/** An HTTP failure: status, code and message, answered as `{code, message}`. */
export class HttpError extends Error {
  constructor(readonly status: number, readonly code: number, message: string) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Sends a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** What answering an error works with: the error counter and the logger (no transport's deps: they import this). */
export interface ErrorAnswerDeps {
  metrics: Pick<Metrics, 'error'>;
  logger: Pick<Logger, 'error'>;
}

/** Answers an error as `{code, message}` with its status, and counts it. */
export function sendError(ctx: ErrorAnswerDeps, res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) {
    ctx.metrics.error('http', error.code);
    sendJson(res, error.status, { code: error.code, message: error.message }, error.status === 413 || error.status === 408 ? { connection: 'close' } : {});
    return;
  }
  if (error instanceof StoreFullError) {
    // A full disk is the operator's to fix; the request is answered with what happened, the server goes on.
    ctx.logger.error({ err: error.message }, 'storage full');
    ctx.metrics.error('http', HTTP_CODE.STORAGE_FULL);
    sendJson(res, 507, { code: HTTP_CODE.STORAGE_FULL, message: error.message });
    return;
  }
  ctx.logger.error({ err: error }, 'http handler failed');
  ctx.metrics.error('http', SERVER_CODE.INTERNAL);
  sendJson(res, 500, { code: SERVER_CODE.INTERNAL, message: 'internal error' });
}

/** The client's address (the socket's, or the right-most untrusted X-Forwarded-For entry behind trusted proxies). */
export { clientAddress } from './client-address.js';

/**
 * How long a body may take to arrive once its headers have: `timeoutMs`, plus a second per `bytesPerSecond` of
 * the route's limit (a 16 KiB body gets ~5 s, a 1 MiB log upload ~21 s), so a client trickling a body holds its
 * connection seconds, not the whole request time-out (docs/architecture.md "Slow requests and connections").
 */
export const BODY_READ = Object.freeze({ timeoutMs: 5_000, bytesPerSecond: 64 * 1024 });

/** Requests whose body must hash to this (SHA-256 hex): node-to-node requests, whose cluster signature covers it. */
const expectedBodies = new WeakMap<IncomingMessage, string>();

/** The body `req` carries must be the one whose SHA-256 is `sha256Hex` (checked as it is read: readRaw). */
export function expectBody(req: IncomingMessage, sha256Hex: string): void {
  expectedBodies.set(req, sha256Hex);
}

/**
 * Reads a request body of at most `limit` bytes. A larger body is read on (and thrown away) up to four
 * times the limit so that a client still sending it gets the 413 answer; past that (or when Content-Length
 * says so at once) the 413 goes out without more reading, and the connection is closed once it is sent
 * (gateway/gateway.ts), so a body of any size costs at most 4 × `limit` bytes read and `limit` bytes held. A body
 * slower than BODY_READ is refused with 408 (BODY_TIMEOUT), its connection closed the same way.
 */
export function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new HttpError(413, SERVER_CODE.MESSAGE_TOO_LARGE, `body exceeds ${limit} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    const timeoutMs = BODY_READ.timeoutMs + Math.round((limit * 1000) / BODY_READ.bytesPerSecond);
    const stop = (error: HttpError) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        if (size > limit * 4) stop(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const timer = setTimeout(() => stop(new HttpError(408, HTTP_CODE.BODY_TIMEOUT, `the body did not arrive within ${(timeoutMs / 1000).toFixed(1)} s`)), timeoutMs);
    timer.unref();
    if (Number(req.headers['content-length']) > limit * 4) {
      stop(tooLarge());
      return;
    }
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(timer);
      if (size > limit) return reject(tooLarge());
      const body = Buffer.concat(chunks);
      const expected = expectedBodies.get(req);
      if (expected !== undefined && createHash('sha256').update(body).digest('hex') !== expected) {
        return reject(new HttpError(403, HTTP_CODE.NODE_SIGNATURE_INVALID, 'the body is not the one the cluster signature covers'));
      }
      resolve(body);
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** True when a body is gzip data (by its header or its magic bytes). */
function isGzip(req: IncomingMessage, body: Buffer): boolean {
  const encoding = req.headers['content-encoding'];
  return (typeof encoding === 'string' && encoding.toLowerCase().includes('gzip')) || (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b);
}

/**
 * Decodes a JSON body, gunzipping it when it is gzip (Content-Encoding: gzip, or gzip magic bytes with
 * any content type); at most `limit` bytes after decompression too.
 */
async function decodeJson(req: IncomingMessage, raw: Buffer, limit: number): Promise<unknown> {
  let body = raw;
  if (isGzip(req, body)) {
    try {
      body = await gunzipAsync(body, { maxOutputLength: limit });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new HttpError(413, SERVER_CODE.MESSAGE_TOO_LARGE, `decompressed body exceeds ${limit} bytes`);
      }
      throw new HttpError(400, HTTP_CODE.BAD_ENCODING, `body is not valid gzip: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'body is not valid JSON');
  }
}

/**
 * Reads a request body of at most `limit` bytes as its route's media type says: JSON (gzip allowed; an
 * empty optional body is `{}`), or a form (urlencoded, or a JSON object whose values become text).
 */
export async function readBodyAs(req: IncomingMessage, type: 'application/json' | 'application/x-www-form-urlencoded', limit: number, required: boolean): Promise<unknown> {
  const raw = await readRaw(req, limit);
  if (raw.length === 0 && !required) return {};
  if (type === 'application/json') return decodeJson(req, raw, limit);
  if (req.headers['content-type']?.includes('application/json')) {
    const parsed = await decodeJson(req, raw, limit);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'body must be an object');
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
}
