import type { IncomingMessage } from 'node:http';
import { SERVER_CODE, SIGNAL_PATH } from '@conclave/protocol';
import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticator.js';
import type { Cluster } from '../cluster/cluster.js';
import { clusterDomains } from '../cluster/schedule-domains.js';
import type { ServerConfig } from '../config/config.js';
import type { Bindings } from './router.js';
import { scheduledIce, scheduledTurnTcpInfo } from '../turn/turn-credentials.js';

/** What scheduling works with. */
export interface ScheduleDeps {
  config: ServerConfig;
  auth: Authenticator;
  logger: Logger;
  /** Set when this server is a node of a cluster: rooms are placed on nodes. */
  cluster?: Cluster;
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
 * The scheduling endpoint (docs/behaviour.md §7): checks the app and the userSig, and answers with the signalling
 * domains, ICE servers and client config. Refusals are status 200 with a code; past limits.credentialChecksPerMinute
 * requests from one address, RATE_LIMITED.
 */
export function scheduleEndpoint(ctx: ScheduleDeps): Bindings<'schedule'> {
  return {
    schedule: {
      refuse: (error) => ({ code: error.code, msg: error.message }),
      handle: async ({ body, req, address }) => {
        // Before the body is read: checking a userSig for anyone who asks is bounded per address.
        if (!ctx.auth.limits.takeCheck('schedule', address)) {
          return { code: SERVER_CODE.RATE_LIMITED, msg: `too many scheduling requests from this address (${ctx.config.limits.credentialChecksPerMinute} per minute)` };
        }
        const form = await body();
        const sdkAppId = Number(form.sdkAppId);
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
            config: { retryCount: 30, enterRoomTimeout: 5, scheduleCache: !ctx.cluster, loggerDomain: ctx.config.loggerDomain ?? publicOrigin(req),
              ...scheduledTurnTcpInfo(ctx.config.turn), ...(ctx.config.videoDecodeFallback ? { videoDecodeFallback: true } : {}),
              ...(ctx.config.preferHW ? { preferHW: true } : {}) },
          },
        };
      },
    },
  };
}
