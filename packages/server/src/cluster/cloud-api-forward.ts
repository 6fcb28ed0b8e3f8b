import { request } from 'node:http';
import { request as requestTls } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Redis } from 'ioredis';
import { LOCAL_HEADER } from './admin-forward.js';
import { KEYS } from './keys.js';
import type { NodeInfo } from './node-registry.js';

/** How long the node of a cloud API task is remembered (the tasks' own store keeps them a week). */
const TASK_TTL_S = 8 * 24 * 3600;
const FORWARD_TIMEOUT_MS = 15_000;

/** The headers a signed cloud API request is verified with: forwarded as received, so the node that answers checks the same signature. */
const SIGNED = ['host', 'authorization', 'content-type', 'x-tc-action', 'x-tc-version', 'x-tc-timestamp', 'x-tc-region', 'x-tc-language', 'x-tc-requestclient', 'x-tc-traceid', 'x-tc-token'];

/** Records on which node a cloud API task (TaskId) was started. */
export async function claimTask(redis: Redis, taskId: string, nodeId: string): Promise<void> {
  await redis.set(KEYS.cloudTask(taskId), nodeId, 'EX', TASK_TTL_S);
}

/**
 * How a cloud API signature was used before a request: never ('first'); by another client address; by this
 * address with this action already; by this address with other actions only (cloud-api/replay-guard.ts).
 */
export type PriorUse = 'first' | 'other-address' | 'same-action' | 'new-action';

/** Records a use of a signature in a hash (`@`: the first address; one field per action) that expires with it. */
const CLAIM_SIGNATURE = `
local first = redis.call('HGET', KEYS[1], '@')
if not first then
  redis.call('HSET', KEYS[1], '@', ARGV[1], ARGV[2], '1')
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  return 'first'
end
if first ~= ARGV[1] then return 'other-address' end
if redis.call('HSETNX', KEYS[1], ARGV[2], '1') == 1 then return 'new-action' end
return 'same-action'`;

/** Records a use of a cloud API signature cluster-wide (docs/behaviour.md §10.3) and says how it was used before. */
export async function claimSignature(redis: Redis, signature: string, use: { address: string; action: string }, ttlSeconds: number): Promise<PriorUse> {
  const answer = await redis.eval(CLAIM_SIGNATURE, 1, KEYS.cloudSignature(signature), use.address, use.action, String(Math.max(1, ttlSeconds)));
  if (answer === 'first' || answer === 'other-address' || answer === 'same-action' || answer === 'new-action') return answer;
  throw new Error(`unexpected answer from Redis: ${String(answer)}`);
}

/** The live node a task was started on, if it is known and alive. */
export async function nodeOfTask(redis: Redis, taskId: string, live: () => Promise<NodeInfo[]>): Promise<NodeInfo | undefined> {
  const id = await redis.get(KEYS.cloudTask(taskId));
  if (!id) return undefined;
  return (await live()).find((node) => node.id === id);
}

/**
 * Sends a cloud API request to another node as it was received (its headers, Host included, and its body
 * byte for byte, so its signature still checks out there), marked to be answered there with `signature` (this
 * node's, nodeSignature over POST / and the payload); returns the answer.
 */
export function forwardCloudApi(node: NodeInfo, headers: IncomingHttpHeaders, payload: Buffer, signature: string): Promise<{ status: number; text: string }> {
  const url = new URL('/', node.url);
  const sent: Record<string, string> = { [LOCAL_HEADER]: signature, 'content-length': String(payload.length) };
  for (const name of SIGNED) {
    const value = headers[name];
    if (typeof value === 'string') sent[name] = value;
  }
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? requestTls : request)(url, { method: 'POST', headers: sent, timeout: FORWARD_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`node ${node.id} did not answer in ${FORWARD_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
