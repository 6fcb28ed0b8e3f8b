import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { parseRoomRef, roomRef } from '../ids/room-ref.js';
import { clusterRoom } from './keys.js';
import type { NodeInfo } from './node-registry.js';
import type { NodeRequest } from './node-signature.js';

/**
 * Marks a request one node makes to another: answer from this node alone, forward nothing. Its value is the
 * sending node's signature (node-signature.ts); the receiving node refuses it without a good one.
 */
export const LOCAL_HEADER = 'x-conclave-local';

const ROOM_PATH = /^\/admin\/v1\/apps\/(\d{1,10})\/rooms\/([^/]+)(\/.*)?$/;
const APP_PATH = /^\/admin\/v1\/apps\/(\d{1,10})(\/rooms)?\/?$/;

/** What forwarding needs from the cluster. */
export interface ForwardHost {
  selfId: string;
  live(): Promise<NodeInfo[]>;
  hostOf(room: string): Promise<NodeInfo | undefined>;
  /** Whether the request's admin key opens this app (checked here first, so a wrong key is refused and rate-limited locally). */
  authorized(sdkAppId: number, authorization: string | undefined): boolean;
  /** The LOCAL_HEADER value of a request to another node (signed with the cluster secret). */
  sign(request: NodeRequest): string;
  logger: Logger;
}

async function readAll(req: IncomingMessage, limit = 64 * 1024): Promise<Buffer | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Sends the same admin request to a node (same method, path, key and body), signed as this node's; returns its answer. */
async function ask(host: ForwardHost, node: NodeInfo, req: IncomingMessage, url: URL, body: Buffer | undefined): Promise<{ status: number; text: string }> {
  const method = req.method ?? 'GET';
  const headers: Record<string, string> = { [LOCAL_HEADER]: host.sign({ method, path: `${url.pathname}${url.search}`, body }) };
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  if (req.headers['content-type']) headers['content-type'] = req.headers['content-type'];
  const response = await fetch(`${node.url}${url.pathname}${url.search}`, {
    method, headers, ...(body && body.length > 0 ? { body } : {}), signal: AbortSignal.timeout(5000),
  });
  return { status: response.status, text: await response.text() };
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(text);
}

/**
 * Cluster-wide admin API: a request about a room hosted by another node is forwarded to that node (so
 * kick, ban and dismiss act where the users are); the app summary and the room list are gathered from
 * every live node and merged (each room says its node). Returns false when this node should answer
 * by itself (a local room, no room at all, or a request another node forwarded).
 */
export async function forwardAdmin(host: ForwardHost, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  if (req.headers[LOCAL_HEADER]) return false;
  const appId = /^\/admin\/v1\/apps\/(\d{1,10})/.exec(url.pathname);
  if (!appId || !host.authorized(Number(appId[1]), req.headers.authorization)) return false;
  const room = ROOM_PATH.exec(url.pathname);
  if (room) {
    let key: string;
    try {
      key = decodeURIComponent(room[2]);
    } catch {
      return false; // a malformed room in the path: not forwarded, the local handler answers it with its code
    }
    const id = parseRoomRef(key);
    if (!id) return false;
    const node = await host.hostOf(clusterRoom(Number(room[1]), roomRef(id.roomId, id.isString)));
    if (!node || node.id === host.selfId) return false;
    const answer = await ask(host, node, req, url, await readAll(req));
    reply(res, answer.status, answer.text);
    return true;
  }
  const app = APP_PATH.exec(url.pathname);
  if (!app || req.method !== 'GET') return false;
  const nodes = await host.live();
  const answers = await Promise.all(nodes.map(async (node) => {
    try {
      return { node, ...(await ask(host, node, req, url, undefined)) };
    } catch (err) {
      host.logger.warn({ err, node: node.id }, 'cluster: node did not answer an admin request');
      return undefined;
    }
  }));
  const ok = answers.filter((a): a is NonNullable<typeof a> => a !== undefined);
  const refused = ok.find((a) => a.status !== 200);
  if (refused || ok.length === 0) {
    if (refused) reply(res, refused.status, refused.text);
    return Boolean(refused);
  }
  const bodies = ok.map((a) => ({ node: a.node.id, body: JSON.parse(a.text) as Record<string, unknown> }));
  if (app[2]) {
    const rooms = bodies.flatMap(({ node, body }) => (body.rooms as Record<string, unknown>[]).map((r) => ({ ...r, node })));
    reply(res, 200, JSON.stringify({ rooms, nodes: bodies.map((b) => b.node) }));
  } else {
    const sum = (field: string) => bodies.reduce((n, { body }) => n + Number(body[field] ?? 0), 0);
    reply(res, 200, JSON.stringify({ ...bodies[0].body, rooms: sum('rooms'), users: sum('users'), nodes: bodies.map((b) => b.node) }));
  }
  return true;
}
