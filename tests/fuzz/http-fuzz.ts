/**
 * Property-based fuzzing of every HTTP surface of a Conclave server from its OpenAPI document
 * (packages/server/openapi.json: scheduling, log upload, statistics, the admin API, TRTC's cloud API) with
 * schemathesis, in two runs against one server:
 *
 * 1. refused: the admin API with no key, a wrong key or garbage, and the cloud API with bad signatures of a
 *    real SecretId. Every request must be refused without a 5xx, and the server's state (the app, its rooms
 *    and users, bans, logs, jobs, recordings, mix images; read through the admin API before and after) must
 *    not change — a user sits in a room throughout so a refused kick or dismissal would show.
 * 2. authorized: every operation, with the right admin key and correctly signed cloud API requests (so the
 *    fuzz reaches the handlers and the actions): no 5xx, and the server still healthy afterwards.
 */
import { genUserSig } from '@conclave/usersig';
import WebSocket from 'ws';
import { runSchemathesis, type FuzzRunResult } from './schemathesis.js';

/** The app the fuzzed server serves (one of its apps; the fuzz targets it). */
export const FUZZ_APP = Object.freeze({
  sdkAppId: 1400900001,
  secretKey: 'fuzz-secret-key-0123456789abcdef',
  adminKey: 'fuzz-admin-key-0123456789abcdef',
  cloudApiKeys: [{ secretId: 'AKIDconclavefuzz0001', secretKey: 'fuzz-cloud-secret-0123456789abcdef' }],
});

/**
 * The server settings a fuzz run needs (ServerOverrides of startServer): the fuzz app, trustProxy so the hooks'
 * random X-Forwarded-For spreads requests over addresses (per-address limits then refuse floods, not the
 * whole run), and upload / cloud API rates high enough that the fuzz reaches the handlers.
 */
export function fuzzServerOverrides() {
  return {
    apps: [{ ...FUZZ_APP, cloudApiKeys: [...FUZZ_APP.cloudApiKeys] }],
    trustProxy: true,
    limits: { logUploadsPerMinute: 1_000_000, cloudApiRequestsPerSecond: 100_000 },
  };
}

/** The server's state as the admin API shows it, as comparable text. */
export async function adminSnapshot(baseUrl: string): Promise<string> {
  const app = `${baseUrl}/admin/v1/apps/${FUZZ_APP.sdkAppId}`;
  const parts: Record<string, unknown> = {};
  for (const path of ['', '/rooms', '/bans', '/logs?limit=100', '/jobs', '/recordings', '/mix-images']) {
    const res = await fetch(`${app}${path}`, { headers: { authorization: `Bearer ${FUZZ_APP.adminKey}`, 'x-forwarded-for': '192.0.2.1' } });
    parts[path || '/'] = { status: res.status, body: await res.json() as unknown };
  }
  const rooms = (parts['/rooms'] as { body: { rooms?: { roomKey?: string }[] } }).body.rooms ?? [];
  for (const room of rooms) {
    const res = await fetch(`${app}/rooms/${encodeURIComponent(String(room.roomKey))}/users`, { headers: { authorization: `Bearer ${FUZZ_APP.adminKey}` } });
    parts[`users of ${room.roomKey}`] = { status: res.status, body: await res.json() as unknown };
  }
  return JSON.stringify(parts, null, 1);
}

/** Who sits in a room of the fuzzed app throughout (a refused kick or dismissal would remove them). */
export const SITTER = Object.freeze({ roomId: 4242, userId: 'fuzz-sitter' });

/** A user joined to a room over the real protocol, kept there by heartbeats; close() leaves. */
export async function sittingUser(baseUrl: string, { roomId, userId } = SITTER): Promise<{ close(): void }> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/signal`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const joined = new Promise<void>((resolve, reject) => {
    socket.on('message', (raw) => {
      const reply = JSON.parse(raw.toString()) as { id?: number; code?: number; message?: string };
      if (reply.id !== 1) return;
      if (reply.code === 0) resolve();
      else reject(new Error(`the sitting user could not join: ${reply.code} ${reply.message}`));
    });
  });
  socket.send(JSON.stringify({ id: 1, cmd: 'join', data: {
    sdkAppId: FUZZ_APP.sdkAppId, userId, userSig: await genUserSig({ sdkAppId: FUZZ_APP.sdkAppId, secretKey: FUZZ_APP.secretKey, userId }),
    roomId: String(roomId), useStringRoomId: false, trtcRole: 20, trtcScene: 1, version: '5.17.1', ua: 'fuzz', terminalType: 15,
  } }));
  await joined;
  let id = 2;
  const beat = setInterval(() => socket.send(JSON.stringify({ id: id++, cmd: 'heartbeat', data: {} })), 2_000);
  return { close: () => { clearInterval(beat); socket.close(1000); } };
}

export interface HttpFuzzResult {
  refused: FuzzRunResult;
  authorized: FuzzRunResult;
  /** The admin snapshot before and after the refused run (equal when nothing changed). */
  before: string;
  afterRefused: string;
  /** GET /healthz after both runs. */
  healthAfter: number;
}

/** Both runs against the server at `baseUrl` (started with fuzzServerOverrides()). */
export async function runHttpFuzz(baseUrl: string, { maxExamples, seed, timeoutMs }: { maxExamples: number; seed?: number; timeoutMs?: number }): Promise<HttpFuzzResult> {
  const common = {
    baseUrl, schema: `${baseUrl}/admin/openapi.json`, adminKey: FUZZ_APP.adminKey,
    target: { sdkAppId: FUZZ_APP.sdkAppId, roomKey: String(SITTER.roomId), userId: SITTER.userId },
    cloudApi: FUZZ_APP.cloudApiKeys[0], maxExamples, seed, timeoutMs,
  };
  const sitter = await sittingUser(baseUrl);
  try {
    const before = await adminSnapshot(baseUrl);
    // A refusal turns on the key or signature, not on the values: the coverage phase's boundary values are left
    // to the authorized run, which reaches the handlers.
    const refused = await runSchemathesis({ ...common, mode: 'refused', tags: ['admin', 'cloud-api'], phases: ['examples', 'fuzzing'] });
    const afterRefused = await adminSnapshot(baseUrl);
    const authorized = await runSchemathesis({ ...common, mode: 'authorized' });
    const health = await fetch(`${baseUrl}/healthz`);
    return { refused, authorized, before, afterRefused, healthAfter: health.status };
  } finally {
    sitter.close();
  }
}
