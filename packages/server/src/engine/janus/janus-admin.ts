import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { MediaServerReport } from '../media-engine.js';

/** Above this many handles the PeerConnections are not counted (a handle_info request each). */
const MAX_HANDLE_INFOS = 200;

/** How long one admin request may take. */
const ADMIN_TIMEOUT_MS = 5000;

interface AdminReply {
  janus: string;
  transaction?: string;
  sessions?: number[];
  handles?: number[];
  info?: { flags?: Record<string, unknown> };
}

/**
 * Janus's admin API over its loopback WebSocket (janus-admin-protocol, guarded by the admin secret): what Janus
 * itself holds (sessions, plugin handles, PeerConnections up), a cross-check of the engine's own bookkeeping.
 * One connection per report: reports are rare (metrics scrapes, tests, the soak), and nothing lingers between them.
 */
export class JanusAdmin {
  constructor(readonly url: string, readonly secret: string) {}

  /** Janus's account of its sessions, handles and PeerConnections; undefined when it does not answer. */
  async report(): Promise<MediaServerReport | undefined> {
    let ws: WebSocket | undefined;
    try {
      ws = await open(this.url);
      const request = requester(ws, this.secret);
      const { sessions = [] } = await request({ janus: 'list_sessions' });
      const bySession = await Promise.all(sessions.map(async (sessionId) => ({
        sessionId, handles: (await request({ janus: 'list_handles', session_id: sessionId })).handles ?? [],
      })));
      const handles = bySession.reduce((sum, s) => sum + s.handles.length, 0);
      // One request per handle: on a busy server (a scrape every few seconds) only the handle count is asked.
      if (handles > MAX_HANDLE_INFOS) return { sessions: sessions.length, handles, peerConnections: undefined };
      const ready = await Promise.all(bySession.flatMap(({ sessionId, handles: ids }) => ids.map(async (handleId) => {
        // A handle may go between the list and its info: it then counts as no PeerConnection.
        const info = await request({ janus: 'handle_info', session_id: sessionId, handle_id: handleId }).catch(() => undefined);
        return info?.info?.flags?.ready === true;
      })));
      return { sessions: sessions.length, handles, peerConnections: ready.filter(Boolean).length };
    } catch {
      return undefined; // documented above: the report is "unknown" and /metrics shows no Janus figures for this scrape
    } finally {
      ws?.close();
    }
  }
}

function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, 'janus-admin-protocol');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('the Janus admin API did not answer'));
    }, ADMIN_TIMEOUT_MS);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve(ws);
    });
    ws.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Sends admin requests on `ws`, matching replies by transaction; an error reply or a time-out rejects. */
function requester(ws: WebSocket, secret: string): (message: Record<string, unknown>) => Promise<AdminReply> {
  const pending = new Map<string, (reply: AdminReply) => void>();
  ws.on('message', (raw: WebSocket.RawData) => {
    try {
      const reply = JSON.parse(String(raw)) as AdminReply;
      if (reply.transaction) pending.get(reply.transaction)?.(reply);
    } catch {
      // not JSON: ignored
    }
  });
  return (message) => new Promise((resolve, reject) => {
    const transaction = randomBytes(8).toString('hex');
    const timer = setTimeout(() => {
      pending.delete(transaction);
      reject(new Error(`Janus admin did not answer '${String(message.janus)}'`));
    }, ADMIN_TIMEOUT_MS);
    pending.set(transaction, (reply) => {
      pending.delete(transaction);
      clearTimeout(timer);
      if (reply.janus === 'success') resolve(reply);
      else reject(new Error(`Janus admin answered '${reply.janus}' to '${String(message.janus)}'`));
    });
    ws.send(JSON.stringify({ ...message, transaction, admin_secret: secret }));
  });
}
