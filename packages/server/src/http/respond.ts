import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { SERVER_CODE, HTTP_CODE } from '@conclave/protocol';
import type { HttpDeps } from './http-deps.js';
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

/** Answers an error as `{code, message}` with its status, and counts it. */
export function sendError(ctx: Pick<HttpDeps, 'metrics' | 'logger'>, res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) {
    ctx.metrics.error('http', error.code);
    sendJson(res, error.status, { code: error.code, message: error.message }, error.status === 413 ? { connection: 'close' } : {});
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

/** The client's address: the socket's, or X-Forwarded-For's first entry behind a trusted proxy. */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  const raw = trustProxy && typeof forwarded === 'string' && forwarded.trim() ? forwarded.split(',')[0].trim() : req.socket.remoteAddress ?? 'unknown';
  return raw.startsWith('::ffff:') ? raw.slice(7) : raw;
}

/**
 * Reads a request body of at most `limit` bytes. A larger body is read on (and thrown away) up to four
 * times the limit so that a client still sending it gets the 413 answer; past that (or when Content-Length
 * says so at once) the 413 goes out without more reading, and the connection is closed once it is sent
 * (http-server.ts), so a body of any size costs at most 4 × `limit` bytes read and `limit` bytes held.
 */
export function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new HttpError(413, SERVER_CODE.MESSAGE_TOO_LARGE, `body exceeds ${limit} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.pause();
      reject(tooLarge());
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        if (size > limit * 4) stop();
        return;
      }
      chunks.push(chunk);
    };
    if (Number(req.headers['content-length']) > limit * 4) {
      stop();
      return;
    }
    req.on('data', onData);
    req.on('end', () => {
      if (size > limit) reject(tooLarge());
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
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
