/**
 * What a load client does with a refusal that says "later": the server's join/reconnect admission answers
 * over its rate with a retry time (`retryAfterMs`, beside the reply's code or in its data); the client waits
 * that long and tries again, as the SDK does. A plain per-connection RATE_LIMITED without a time waits a second.
 */
import { SERVER_CODE } from '@conclave/protocol';
import type { Reply } from './signal-client.js';

/** Wait before retrying when a RATE_LIMITED reply names no time. */
export const DEFAULT_RETRY_MS = 1_000;

/** How long to wait before retrying this reply's request, or undefined when it is not a "retry later" answer. */
export function retryAfterMs(reply: Reply): number | undefined {
  const named = [reply.retryAfterMs, (reply.data as Record<string, unknown> | undefined)?.retryAfterMs].find((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);
  if (typeof named === 'number') return named;
  return reply.code === SERVER_CODE.RATE_LIMITED ? DEFAULT_RETRY_MS : undefined;
}
