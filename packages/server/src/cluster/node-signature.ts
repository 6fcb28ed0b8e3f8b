import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { KEYS } from './keys.js';

/** How far a node-to-node request's time may be from the receiving node's clock (30 s): older ones are stale. */
export const NODE_SIGNATURE_SKEW_MS = 30_000;

const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const EMPTY = Buffer.alloc(0);

/** What a node-to-node signature covers. */
export interface NodeRequest {
  method: string;
  /** Path and query, as sent (`/admin/v1/apps/1/rooms?x=1`). */
  path: string;
  body?: Buffer;
  /** The address of the client the sending node got the request from (the receiving node keys its limits on it). */
  client?: string;
}

function mac(secret: string, method: string, path: string, bodySha256: string, client: string, time: number): string {
  return createHmac('sha256', secret).update(`${method.toUpperCase()}\n${path}\n${bodySha256}\n${client}\n${time}`).digest('hex');
}

/**
 * The LOCAL_HEADER value of a request one node sends another (docs/architecture.md "Node-to-node requests"):
 * `t=<ms>;b=<body SHA-256>;c=<client address>;s=<HMAC-SHA256 with the cluster secret of method, path, body hash,
 * client and time>`.
 */
export function nodeSignature(secret: string, request: NodeRequest, now = Date.now()): string {
  const bodySha256 = sha256Hex(request.body ?? EMPTY);
  const client = /^[0-9a-fA-F.:]{1,45}$/.test(request.client ?? '') ? request.client ?? '' : '';
  return `t=${now};b=${bodySha256};c=${client};s=${mac(secret, request.method, request.path, bodySha256, client, now)}`;
}

/** The verdict on a LOCAL_HEADER value; when good, the SHA-256 the request's body must have and the client named. */
export type NodeCheck = { ok: true; bodySha256: string; client?: string } | { ok: false; reason: string };

/** Checks a LOCAL_HEADER value against the request's method and path (its body is checked as it is read). */
export function checkNodeSignature(secret: string, header: string | undefined, request: Omit<NodeRequest, 'body' | 'client'>, now = Date.now()): NodeCheck {
  const match = header === undefined ? null : /^t=(\d{1,15});b=([0-9a-f]{64});c=([0-9a-fA-F.:]{0,45});s=([0-9a-f]{64})$/.exec(header);
  if (!match) return { ok: false, reason: 'unsigned' };
  const time = Number(match[1]);
  if (Math.abs(now - time) > NODE_SIGNATURE_SKEW_MS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(mac(secret, request.method, request.path, match[2], match[3], time), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(match[4], 'hex'))) return { ok: false, reason: 'bad signature' };
  return { ok: true, bodySha256: match[2], ...(match[3] ? { client: match[3] } : {}) };
}

/**
 * The cluster secret when none is configured: the one in Redis, put there by the first node (a random one, or
 * `mine` when this node had one before Redis lost its data). Whoever reads Redis has it: Redis needs AUTH.
 */
export async function sharedSecret(redis: Redis, mine?: string): Promise<string> {
  await redis.set(KEYS.clusterSecret, mine ?? randomBytes(32).toString('hex'), 'NX');
  const secret = await redis.get(KEYS.clusterSecret);
  if (!secret) throw new Error('the cluster secret is not in Redis');
  return secret;
}
