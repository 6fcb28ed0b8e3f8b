import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { HTTP_CODE, SERVER_CODE } from '@conclave/protocol';
import { HTTP_ROUTES, type OperationId, type RouteSpec } from '@conclave/protocol/schemas';
import type { z } from 'zod';
import { formatIssues } from '../config/schema.js';
import { HttpError, readBodyAs, readRaw, sendError, sendJson, type ErrorAnswerDeps } from './respond.js';

type Spec<Op extends OperationId> = (typeof HTTP_ROUTES)[Op];
type Infer<T> = T extends z.ZodType ? z.infer<T> : Record<string, never>;
/** What a route answers (its reply schema's type). */
export type Reply<Op extends OperationId> = z.infer<Spec<Op>['reply']['schema']>;
type Params<Op extends OperationId> = Spec<Op> extends { params: infer P } ? Infer<P> : Record<string, never>;
type Query<Op extends OperationId> = Spec<Op> extends { query: infer Q } ? Infer<Q> : Record<string, never>;
/** The validated body; an `image/*` body is its raw bytes (the handler checks them). */
type Body<Op extends OperationId> = Spec<Op> extends { body: { type: 'image/*' } } ? Buffer
  : Spec<Op> extends { body: { schema: infer B } } ? Infer<B> : never;

/** A reply with its own status, headers or a text body (health, metrics, the OpenAPI document). */
export class HttpReply<T> {
  constructor(readonly status: number, readonly body: T, readonly headers: Record<string, string> = {}, readonly text = false) {}
}

/** A file answered as the body (a recording download): streamed, never read into memory. */
export class HttpFileReply {
  constructor(readonly path: string, readonly contentType: string, readonly filename: string) {}
}

/** What a handler gets: validated params and query, and the body, read and validated when it asks. */
export interface RouteInput<Op extends OperationId> {
  params: Params<Op>;
  query: Query<Op>;
  /** Reads and validates the body (so a handler may refuse, e.g. rate-limit, before reading it). */
  body(): Promise<Body<Op>>;
  req: IncomingMessage;
  /** The raw path parameters, before validation (for the admin key check, which answers first). */
  rawParams: Record<string, string>;
  address: string;
}

/** The server's side of a route: its handler and how it reads and refuses. */
export interface RouteBinding<Op extends OperationId> {
  /** Runs before validation (the admin key check). */
  before?(input: RouteInput<Op>): void;
  handle(input: RouteInput<Op>): Promise<Reply<Op> | HttpReply<Reply<Op>> | HttpFileReply> | Reply<Op> | HttpReply<Reply<Op>> | HttpFileReply;
  /** Largest body, in bytes (default 16 KiB). */
  bodyLimit?(): number;
  /**
   * Routes whose refusals are status 200 with a code in the reply body (scheduling, AI-denoise
   * authorisation): turns an input error into that reply.
   */
  refuse?(error: HttpError): Reply<Op>;
}

/** A binding for every route of HTTP_ROUTES (a missing one is a compile error). */
export type Bindings<K extends OperationId = OperationId> = { [Op in K]: RouteBinding<Op> };

const DEFAULT_BODY_LIMIT = 16 * 1024;

/** The query as an object: first value of each name; empty values count as absent. */
function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (value !== '' && !Object.hasOwn(out, name)) out[name] = value;
  }
  return out;
}

function validate<T>(schema: z.ZodType<T> | undefined, value: unknown, what: string): T {
  if (!schema) return {} as T;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `invalid ${what}: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

async function sendFile(res: ServerResponse, file: HttpFileReply): Promise<void> {
  const { size } = await stat(file.path);
  res.writeHead(200, {
    'content-type': file.contentType, 'content-length': String(size),
    'content-disposition': `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
  });
  await pipeline(createReadStream(file.path), res).catch(() => undefined); // the client went away
}

interface Compiled {
  id: OperationId;
  spec: RouteSpec;
  segments: string[];
}

/**
 * Routes HTTP requests by HTTP_ROUTES (@conclave/protocol): matches method and path, validates path
 * parameters, query and body with the route's schemas, runs the handler and answers JSON. Errors are
 * `{code, message}` with their status (or the route's own 200 refusal).
 */
export class Router {
  readonly #ctx: ErrorAnswerDeps;
  readonly #bindings: Bindings;
  readonly #routes: Compiled[];

  constructor(ctx: ErrorAnswerDeps, bindings: Bindings) {
    this.#ctx = ctx;
    this.#bindings = bindings;
    this.#routes = (Object.entries(HTTP_ROUTES) as [OperationId, RouteSpec][]).map(([id, spec]) => ({ id, spec, segments: spec.path.split('/') }));
  }

  /** Every route served: method and path template (what the OpenAPI document must list). */
  get routes(): { method: string; path: string }[] {
    return this.#routes.filter((r) => Object.hasOwn(this.#bindings, r.id)).map(({ spec }) => ({ method: spec.method, path: spec.path }));
  }

  /**
   * Answers a request when a route's path matches it (405 when only the method differs); false when no
   * route's path matches, so the caller serves files or a 404.
   */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, address: string): boolean {
    let found: { route: Compiled; params: Record<string, string> } | undefined;
    let pathMatched = false;
    try {
      for (const route of this.#routes) {
        const params = this.#match(route.segments, url.pathname);
        if (!params) continue;
        pathMatched = true;
        if (route.spec.method === req.method) {
          found = { route, params };
          break;
        }
      }
    } catch (error) {
      sendError(this.#ctx, res, error);
      return true;
    }
    if (!found) {
      if (!pathMatched) return false;
      req.resume();
      sendError(this.#ctx, res, new HttpError(405, HTTP_CODE.METHOD_NOT_ALLOWED, `${req.method ?? ''} is not allowed here`));
      return true;
    }
    this.#run(found.route, found.params, req, res, url, address).catch((error: unknown) => sendError(this.#ctx, res, error));
    return true;
  }

  /** The path parameters when `pathname` fits the template, else undefined. */
  #match(segments: string[], pathname: string): Record<string, string> | undefined {
    const parts = pathname.split('/');
    if (parts.length !== segments.length) return undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const name = /^\{(\w+)\}$/.exec(segments[i])?.[1];
      if (!name) {
        if (segments[i] !== parts[i]) return undefined;
        continue;
      }
      if (parts[i] === '') return undefined;
      try {
        params[name] = decodeURIComponent(parts[i]);
      } catch {
        throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `${name} is not valid URL encoding`);
      }
    }
    return params;
  }

  async #run<Op extends OperationId>(route: Compiled, rawParams: Record<string, string>, req: IncomingMessage, res: ServerResponse, url: URL, address: string): Promise<void> {
    const binding = this.#bindings[route.id as Op] as RouteBinding<Op>;
    const { spec } = route;
    try {
      let bodyRead = false;
      const input: RouteInput<Op> = {
        params: {} as Params<Op>,
        query: {} as Query<Op>,
        req, rawParams, address,
        body: async () => {
          bodyRead = true;
          if (!spec.body) return undefined as never;
          const limit = binding.bodyLimit?.() ?? DEFAULT_BODY_LIMIT;
          if (spec.body.type === 'image/*') return await readRaw(req, limit) as Body<Op>;
          const raw = await readBodyAs(req, spec.body.type, limit, spec.body.required);
          return validate(spec.body.schema, raw, 'body') as Body<Op>;
        },
      };
      binding.before?.(input);
      input.params = validate(spec.params, rawParams, 'path') as Params<Op>;
      input.query = validate(spec.query, queryObject(url), 'query') as Query<Op>;
      const result = await binding.handle(input);
      if (!bodyRead) req.resume();
      if (result instanceof HttpFileReply) {
        await sendFile(res, result);
        return;
      }
      if (result instanceof HttpReply) {
        if (result.text) {
          res.writeHead(result.status, { 'cache-control': 'no-store', ...result.headers });
          res.end(String(result.body));
        } else {
          sendJson(res, result.status, result.body, result.headers);
        }
        return;
      }
      sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof HttpError && binding.refuse) {
        this.#ctx.metrics.error('http', error.code);
        req.resume();
        sendJson(res, 200, binding.refuse(error));
        return;
      }
      throw error;
    }
  }
}
