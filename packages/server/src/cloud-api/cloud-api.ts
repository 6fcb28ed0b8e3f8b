import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readRaw } from '../http/respond.js';
import { KeyedRateLimiter } from '../limits/rate-limiter.js';
import type { ActionHandler, ActionResult } from './action.js';
import type { CloudApiDeps } from './cloud-api-deps.js';
import { CloudApiError } from './cloud-api-error.js';
import type { Params } from './params.js';
import { STARTS_TASK, subjectOf } from './cloud-api-route.js';
import { cdnActions, CdnJobs } from './cdn-actions.js';
import { mcuActions } from './mcu-actions.js';
import { callRecordActions } from './call-record-actions.js';
import { recordingActions, resumeRecordings } from './recording-actions.js';
import { roomActions } from './room-actions.js';
import { TRTC_ACTIONS, TRTC_VERSION } from './trtc-actions.js';
import { keyRing, verifyRequest, type KeyRing, type VerifiedRequest } from './verify-request.js';

/** The largest request body (the API's own limit for a JSON POST is 1 MB). */
const MAX_BODY_BYTES = 1024 * 1024;
/** Failed signatures tolerated per client address per minute before the address is refused for a minute. */
const FAILURES_PER_MINUTE = 30;
/** Tasks are forgotten a week after they were last touched (a TaskId then answers InvalidParameter.TaskId). */
const TASKS_KEPT_MS = 7 * 24 * 3600 * 1000;

/**
 * TRTC's server API (TencentCloud API 3.0, `trtc` 2019-07-22) on this server's rooms: one signed POST to `/`
 * per action, as tencentcloud-sdk-nodejs's trtc client sends it with its endpoint pointed here. Requests are
 * verified with TC3-HMAC-SHA256 against the apps' `cloudApiKeys`, rate-limited per SecretId, and every action
 * done is audit-logged (the room's logs in the store, and the server log); answers and refusals are in the
 * API's shapes, HTTP 200 with `{"Response": {…, "RequestId"}}`.
 */
export class CloudApi {
  readonly #deps: CloudApiDeps;
  readonly #ring: KeyRing;
  readonly #actions: Readonly<Record<string, ActionHandler>>;
  readonly #perSecretId: KeyedRateLimiter;
  readonly #failures = new KeyedRateLimiter({ amount: FAILURES_PER_MINUTE, windowMs: 60_000 });
  readonly #lockedUntil = new Map<string, number>();

  constructor(deps: CloudApiDeps) {
    this.#deps = deps;
    this.#ring = keyRing(deps.config.apps);
    this.#perSecretId = new KeyedRateLimiter({ amount: deps.config.limits.cloudApiRequestsPerSecond, windowMs: 1000 });
    const tasks = deps.store.cloudTasks;
    const media = { ...deps, tasks, cdnJobs: new CdnJobs(deps.jobs) };
    // The tasks the previous process ran: their jobs died with it. Recordings resume if their users come back.
    const now = Date.now();
    tasks.purge(now - TASKS_KEPT_MS);
    const interrupted = tasks.interruptRunning(now);
    if (interrupted.length > 0) deps.logger.info({ tasks: interrupted.length }, 'cloud-api: tasks interrupted by the restart');
    resumeRecordings({ ...deps, tasks }, interrupted, now);
    this.#actions = { ...roomActions(deps), ...recordingActions({ ...deps, tasks }), ...callRecordActions(deps.store.callRecords), ...cdnActions(media), ...mcuActions(media) };
  }

  /** The actions this server implements. */
  get actions(): string[] {
    return Object.keys(this.#actions);
  }

  /** True when a request is for the cloud API: a POST to `/` (the API has a single endpoint). */
  static wants(req: IncomingMessage, pathname: string): boolean {
    return req.method === 'POST' && pathname === '/';
  }

  /** Answers one request; never throws (a failure is answered in the API's error shape). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, address: string): Promise<void> {
    const requestId = randomUUID();
    const traceId = req.headers['x-tc-traceid'];
    const send = (body: unknown) => {
      if (res.headersSent) return;
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', ...(typeof traceId === 'string' ? { 'x-tc-traceid': traceId } : {}) });
      res.end(JSON.stringify(body));
    };
    let verified: VerifiedRequest | undefined;
    try {
      this.#refuseLockedOut(address);
      const payload = await readRaw(req, MAX_BODY_BYTES);
      try {
        verified = verifyRequest(this.#ring, { method: req.method ?? 'POST', path: url.pathname, query: url.search.slice(1), headers: req.headers }, payload, Math.floor(Date.now() / 1000), this.#deps.config.limits.cloudApiClockSkewSeconds);
      } catch (error) {
        this.#noteFailure(address, req, error);
        throw error;
      }
      const answer = await this.#run(verified, req, payload, requestId);
      if ('forwarded' in answer) {
        if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(answer.forwarded);
      } else {
        send({ Response: { ...answer.result, RequestId: requestId } });
      }
    } catch (error) {
      const refusal = this.#refusal(error, verified, requestId);
      send({ Response: { Error: { Code: refusal.code, Message: refusal.message }, RequestId: requestId } });
    }
  }

  async #run(verified: VerifiedRequest, req: IncomingMessage, payload: Buffer, requestId: string): Promise<{ result: ActionResult } | { forwarded: string }> {
    const { app, secretId, action } = verified;
    if (!this.#perSecretId.take(secretId)) {
      throw new CloudApiError('RequestLimitExceeded', `more than ${this.#deps.config.limits.cloudApiRequestsPerSecond} requests per second with this SecretId`);
    }
    const version = req.headers['x-tc-version'];
    if (version !== TRTC_VERSION) throw new CloudApiError('NoSuchVersion', `the API version must be ${TRTC_VERSION} (X-TC-Version)`);
    const handler = Object.hasOwn(this.#actions, action) ? this.#actions[action] : undefined;
    if (!handler) {
      if (TRTC_ACTIONS.has(action)) throw new CloudApiError('UnsupportedOperation', `${action} is not supported by this server (see its README for the actions it answers)`);
      throw new CloudApiError('InvalidAction', `the action ${action} does not exist`);
    }
    const params = parseParams(payload);
    const forwarded = await this.#forward(verified, req, params, payload);
    if (forwarded !== undefined) return { forwarded };
    const result = await handler({
      app, params,
      audit: (roomRef, userId, text) => {
        const log = `cloud-api ${action}: ${text} (SecretId ${secretId}, RequestId ${requestId})`;
        this.#deps.metrics.adminAction(`cloudapi.${action}`);
        this.#deps.store.insertLog({ sdkAppId: app.sdkAppId, roomRef, userId, cmdType: 'server_event', version: 'server', clientTime: null, receivedAt: Date.now(), log });
        this.#deps.logger.info({ sdkAppId: app.sdkAppId, room: roomRef, userId, secretId, action, requestId }, log);
      },
    });
    this.#deps.logger.info({ sdkAppId: app.sdkAppId, secretId, action, requestId }, 'cloud-api: done');
    if (this.#deps.cluster && STARTS_TASK.has(action) && typeof result.TaskId === 'string') {
      await this.#deps.cluster.claimCloudTask(result.TaskId).catch((err: unknown) => {
        this.#deps.logger.warn({ err, taskId: result.TaskId }, 'cloud-api: could not record the task in the cluster; only this node answers it');
      });
    }
    return { result };
  }

  /**
   * On a cluster: a request about a room hosted by another node, or a task another node runs, is sent there
   * as received (that node verifies it again and answers); the answer text, or undefined to answer here.
   */
  async #forward(verified: VerifiedRequest, req: IncomingMessage, params: Params, payload: Buffer): Promise<string | undefined> {
    const cluster = this.#deps.cluster;
    const subject = cluster && subjectOf(verified.action, params, verified.app.sdkAppId);
    if (!cluster || !subject) return undefined;
    const node = await cluster.cloudApiNode(req.headers, subject).catch((err: unknown) => {
      this.#deps.logger.warn({ err }, 'cloud-api: the cluster could not say where this room or task is; answered here');
      return undefined;
    });
    if (!node) return undefined;
    this.#deps.logger.info({ action: verified.action, node: node.id }, 'cloud-api: sent to the node hosting its room or task');
    try {
      return (await cluster.forwardCloudApi(node, req.headers, payload)).text;
    } catch (err) {
      this.#deps.logger.warn({ err, node: node.id }, 'cloud-api: the node hosting the room or task did not answer');
      throw new CloudApiError('InternalError', `the cluster node hosting this room or task (${node.id}) did not answer`);
    }
  }

  #refusal(error: unknown, verified: VerifiedRequest | undefined, requestId: string): CloudApiError {
    const who = { secretId: verified?.secretId, action: verified?.action, requestId };
    if (error instanceof CloudApiError) {
      this.#deps.logger.info({ ...who, code: error.code }, `cloud-api: refused: ${error.message}`);
      return error;
    }
    if (error instanceof HttpError) return new CloudApiError(error.status === 413 ? 'InvalidParameter' : 'InternalError', error.message);
    this.#deps.logger.error({ ...who, err: error }, 'cloud-api: action failed');
    return new CloudApiError('InternalError', 'internal error');
  }

  #refuseLockedOut(address: string): void {
    const until = this.#lockedUntil.get(address);
    if (until === undefined) return;
    if (until > Date.now()) throw new CloudApiError('RequestLimitExceeded', 'too many failed signatures from this address; try again later');
    this.#lockedUntil.delete(address);
  }

  /** A failed signature: logged (SecretId, never a key), counted against the address. */
  #noteFailure(address: string, req: IncomingMessage, error: unknown): void {
    const code = error instanceof CloudApiError ? error.code : 'InternalError';
    this.#deps.logger.warn({ address, code, action: req.headers['x-tc-action'] }, 'cloud-api: authentication failed');
    if (!this.#failures.take(address)) {
      if (this.#lockedUntil.size > 10_000) this.#lockedUntil.clear();
      this.#lockedUntil.set(address, Date.now() + 60_000);
    }
  }
}

/** The JSON body's fields; an empty body is no parameters. */
function parseParams(payload: Buffer): Params {
  if (payload.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new CloudApiError('InvalidParameter', 'the body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CloudApiError('InvalidParameter', 'the body must be a JSON object');
  return parsed as Params;
}
