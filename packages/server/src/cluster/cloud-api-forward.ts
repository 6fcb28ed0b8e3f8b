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

/** The live node a task was started on, if it is known and alive. */
export async function nodeOfTask(redis: Redis, taskId: string, live: () => Promise<NodeInfo[]>): Promise<NodeInfo | undefined> {
  const id = await redis.get(KEYS.cloudTask(taskId));
  if (!id) return undefined;
  return (await live()).find((node) => node.id === id);
}

/**
 * Sends a cloud API request to another node as it was received (its headers, Host included, and its body
 * byte for byte, so its signature still checks out there), marked to be answered there; returns the answer.
 */
export function forwardCloudApi(node: NodeInfo, headers: IncomingHttpHeaders, payload: Buffer): Promise<{ status: number; text: string }> {
  const url = new URL('/', node.url);
  const sent: Record<string, string> = { [LOCAL_HEADER]: '1', 'content-length': String(payload.length) };
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
