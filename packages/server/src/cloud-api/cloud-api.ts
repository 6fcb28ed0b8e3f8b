import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readRaw } from '../http/respond.js';
import { FailureLockout } from '../limits/failure-lockout.js';
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
import { mayAct, ReplayGuard, type PriorUse } from './replay-guard.js';
import { parseTc3Authorization } from './tc3-signature.js';
import { keyRing, verifyRequest, type KeyRing, type VerifiedRequest } from './verify-request.js';

/** The largest request body (the API's own limit for a JSON POST is 1 MB). */
const MAX_BODY_BYTES = 1024 * 1024;
/** Failed signatures tolerated per (client address, SecretId) per minute before that pair is refused for a minute. */
const FAILURES_PER_MINUTE = 30;
/** Tasks are forgotten a week after they were last touched (a TaskId then answers InvalidParameter.TaskId). */
const TASKS_KEPT_MS = 7 * 24 * 3600 * 1000;

/**
 * TRTC's server API (TencentCloud API 3.0, `trtc` 2019-07-22) on this server's rooms: one signed POST to `/`
 * per action, as tencentcloud-sdk-nodejs's trtc client sends it with its endpoint pointed here. Requests are
 * verified with TC3-HMAC-SHA256 against the apps' `cloudApiKeys`, rate-limited per SecretId, accepted once per
 * signature (ReplayGuard; on a cluster, Redis too), and every action done is audit-logged (the room's logs in the store, and the server log); answers and refusals are in the
 * API's shapes, HTTP 200 with `{"Response": {…, "RequestId"}}`.
 */
export class CloudApi {
  readonly #deps: CloudApiDeps;
  readonly #ring: KeyRing;
  readonly #actions: Readonly<Record<string, ActionHandler>>;
  readonly #perSecretId: KeyedRateLimiter;
  readonly #lockout = new FailureLockout({ failures: FAILURES_PER_MINUTE, windowMs: 60_000, lockMs: 60_000 });
  readonly #replays: ReplayGuard;

  constructor(deps: CloudApiDeps) {
    this.#deps = deps;
    this.#ring = keyRing(deps.config.apps);
    const { cloudApiRequestsPerSecond: rate, cloudApiClockSkewSeconds: skew } = deps.config.limits;
    this.#perSecretId = new KeyedRateLimiter({ amount: rate, windowMs: 1000 });
    // A signature can be accepted for 2 × skew seconds; the rate limit lets at most this many through meanwhile.
    this.#replays = new ReplayGuard(rate * (2 * skew + 1));
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
    // Lockouts are per (address, SecretId claimed): failures with one key lock out neither its other users nor other keys.
    const authorization = req.headers.authorization;
    const lockKey = `${address}|${parseTc3Authorization(typeof authorization === 'string' ? authorization : undefined)?.secretId.slice(0, 128) ?? '-'}`;
    try {
      if (this.#lockout.locked(lockKey)) throw new CloudApiError('RequestLimitExceeded', 'too many failed signatures from this address; try again later');
      const payload = await readRaw(req, MAX_BODY_BYTES);
      try {
        verified = verifyRequest(this.#ring, { method: req.method ?? 'POST', path: url.pathname, query: url.search.slice(1), headers: req.headers }, payload, Math.floor(Date.now() / 1000), this.#deps.config.limits.cloudApiClockSkewSeconds);
      } catch (error) {
        this.#noteFailure(address, lockKey, req, error);
        throw error;
      }
      const answer = await this.#run(verified, req, payload, requestId, address);
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

  /** Answers a request refused before it reached the API (a node-to-node request with a bad cluster signature). */
  refuse(res: ServerResponse, error: CloudApiError): void {
    if (res.headersSent) return;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ Response: { Error: { Code: error.code, Message: error.message }, RequestId: randomUUID() } }));
  }

  async #run(verified: VerifiedRequest, req: IncomingMessage, payload: Buffer, requestId: string, address: string): Promise<{ result: ActionResult } | { forwarded: string }> {
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
    const forwarded = await this.#forward(verified, req, params, payload, address);
    if (forwarded !== undefined) return { forwarded };
    // Claimed where it runs (a forwarded request is claimed by the node it was sent to).
    await this.#claim(verified, address);
    const result = await handler({
      app, params,
      audit: (roomRef, userId, text) => {
        const log = `cloud-api ${action}: ${text} (SecretId ${secretId}, RequestId ${requestId})`;
        this.#deps.cloudApiObserver.emit({ type: 'action', action });
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
  async #forward(verified: VerifiedRequest, req: IncomingMessage, params: Params, payload: Buffer, address: string): Promise<string | undefined> {
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
      return (await cluster.forwardCloudApi(node, req.headers, payload, address)).text;
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
    if (error instanceof HttpError) {
      // The body: too large (413) or too slow (408); 403: not the body a node-to-node signature covers.
      const code = error.status === 413 || error.status === 408 ? 'InvalidParameter' : error.status === 403 ? 'AuthFailure.SignatureFailure' : 'InternalError';
      this.#deps.logger.info({ ...who, code, status: error.status }, `cloud-api: refused: ${error.message}`);
      return new CloudApiError(code, error.message);
    }
    this.#deps.logger.error({ ...who, err: error }, 'cloud-api: action failed');
    return new CloudApiError('InternalError', 'internal error');
  }

  /**
   * Takes the request's signature (docs/behaviour.md §10.3): refused with AuthFailure.SignatureExpire (the
   * signature is no longer valid: sign again) when it was used from another address, or for this same write
   * already. On a cluster Redis holds every node's signatures (while it is away, this node's alone).
   */
  async #claim(verified: VerifiedRequest, address: string): Promise<void> {
    const { secretId, signature, action, timestamp } = verified;
    const now = Math.floor(Date.now() / 1000);
    const until = timestamp + this.#deps.config.limits.cloudApiClockSkewSeconds;
    let prior: PriorUse;
    try {
      prior = this.#replays.claim(secretId, signature, { address, action }, until, now);
    } catch {
      throw new CloudApiError('RequestLimitExceeded', 'too many requests with this SecretId in the signature window');
    }
    if (prior === 'first' && this.#deps.cluster) {
      prior = await this.#deps.cluster.claimSignature(signature, { address, action }, until - now + 1).catch((err: unknown) => {
        this.#deps.logger.warn({ err }, 'cloud-api: Redis could not record the signature; only this node remembers it');
        return 'first' as const;
      });
    }
    if (mayAct(prior, action)) return;
    this.#deps.logger.warn({ secretId, action, address, prior }, 'cloud-api: a signature that already acted was sent again (replay refused)');
    throw new CloudApiError('AuthFailure.SignatureExpire', 'this signature was already used: a signed request is accepted once; sign the request again (a new X-TC-Timestamp)');
  }

  /** A failed signature: logged (SecretId, never a key), counted against (address, SecretId). */
  #noteFailure(address: string, lockKey: string, req: IncomingMessage, error: unknown): void {
    const code = error instanceof CloudApiError ? error.code : 'InternalError';
    this.#deps.logger.warn({ address, code, action: req.headers['x-tc-action'] }, 'cloud-api: authentication failed');
    this.#lockout.fail(lockKey);
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
