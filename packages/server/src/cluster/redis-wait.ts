import type { Redis } from 'ioredis';

/** Raised when Redis stayed unreachable for the whole bounded wait of a placement. */
export class ClusterUnavailableError extends Error {
  override name = 'ClusterUnavailableError';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true once the connection is ready, false when `deadline` (ms since the epoch) passes first. */
export function redisReady(redis: Redis, deadline: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  const left = deadline - Date.now();
  if (left <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, left);
    redis.once('ready', onReady);
  });
}

/**
 * Runs `op` against Redis, waiting for the connection (and retrying `op` after a failure caused by a lost
 * connection) until `deadline`; then ClusterUnavailableError. Errors of `op` itself (Redis answering) pass.
 */
export async function withRedis<T>(redis: Redis, deadline: number, op: () => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (;;) {
    if (!await redisReady(redis, deadline)) {
      const why = lastError instanceof Error ? ` (${lastError.message})` : '';
      throw new ClusterUnavailableError(`the cluster's Redis is unreachable${why}: no new room can be placed now; try again in a few seconds`);
    }
    try {
      return await op();
    } catch (error) {
      // Redis answered with an error: not an outage. A lost connection: wait for it and try again.
      if (redis.status === 'ready' && !isConnectionError(error)) throw error;
      lastError = error;
      await sleep(Math.min(200, Math.max(0, deadline - Date.now())));
    }
  }
}

/** ioredis' errors of a lost or timed-out connection (not an error Redis answered). */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'MaxRetriesPerRequestError' || /Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|EPIPE|Stream isn't writeable/i.test(error.message);
}
