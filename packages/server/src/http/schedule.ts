import type { IncomingMessage } from 'node:http';
import { SIGNAL_PATH, type ScheduleResponse, SERVER_CODE } from '@conclave/protocol';
import type { ServerContext } from '../context.js';
import { scheduledIce } from '../turn/turn-credentials.js';
import { clusterDomains } from '../cluster/schedule-domains.js';

/** Largest scheduling request body accepted. */
const MAX_BODY_BYTES = 16 * 1024;

/** Reads a request body up to a limit; rejects when larger. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error(`body exceeds ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses the scheduling form (urlencoded, or JSON for convenience). */
function parseForm(body: string, contentType: string | undefined): Record<string, string> {
  if (contentType?.includes('application/json')) {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) throw new Error('body must be an object');
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(body));
}

/** The public origin of this server as the client reached it (http or https), for building URLs. */
export function publicOrigin(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-proto'];
  const secure = (typeof forwarded === 'string' && forwarded.split(',')[0].trim() === 'https') ||
    ('encrypted' in req.socket && Boolean((req.socket as { encrypted?: boolean }).encrypted));
  return `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
}

/** This server's own signalling URL as the client reached it. */
function signalUrl(req: IncomingMessage): string {
  return `${publicOrigin(req).replace(/^http/, 'ws')}${SIGNAL_PATH}`;
}

/**
 * The scheduling endpoint (SPEC §7): checks the app and the userSig, and answers with the
 * signalling domains, ICE servers and client config.
 */
export async function handleSchedule(ctx: ServerContext, req: IncomingMessage): Promise<ScheduleResponse> {
  let form: Record<string, string>;
  try {
    form = parseForm(await readBody(req), req.headers['content-type']);
  } catch (error) {
    return { code: SERVER_CODE.BAD_REQUEST, msg: `invalid request: ${(error as Error).message}` };
  }
  const sdkAppId = Number(form.sdkAppId);
  if (!Number.isSafeInteger(sdkAppId) || sdkAppId <= 0) return { code: SERVER_CODE.INVALID_PARAMETER, msg: 'sdkAppId must be a positive integer' };
  if (!form.userId) return { code: SERVER_CODE.INVALID_PARAMETER, msg: 'userId is required' };
  if (!form.userSig) return { code: SERVER_CODE.INVALID_PARAMETER, msg: 'userSig is required' };
  const auth = await ctx.auth.verify(sdkAppId, form.userId, form.userSig);
  if (!auth.ok) return { code: auth.code, msg: auth.message };
  const billing = ctx.auth.billing(sdkAppId);
  if (!billing.ok) return { code: billing.code, msg: billing.message };
  // Main and backup signalling domains come from the configuration; each defaults to this server.
  // In a cluster: the node hosting the room (placed now if new) and another node.
  const own = signalUrl(req);
  const { domains } = ctx.config;
  const cluster = await clusterDomains(ctx, sdkAppId, form);
  if (cluster && 'code' in cluster) return cluster;
  return {
    code: 0,
    msg: 'ok',
    data: {
      domains: cluster ?? { main: domains?.main ?? own, backup: domains?.backup ?? own },
      ...scheduledIce(ctx.config, ctx.auth.app(sdkAppId), form.userId),
      trtcAutoConf: { enable2k4k: true },
      // A cluster moves rooms between nodes: a cached answer would send clients to the old node.
      config: { retryCount: 30, enterRoomTimeout: 5, scheduleCache: !ctx.cluster, loggerDomain: ctx.config.loggerDomain ?? publicOrigin(req) },
    },
  };
}
