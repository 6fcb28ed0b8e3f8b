/**
 * Must show (issue 30) "Hostile input, beyond the signalling fuzz": oversized and slow requests — slowloris
 * (headers trickled), huge bodies, deeply nested JSON, WebSocket frames over the limit — are each refused
 * clearly, within a bounded time and without the server holding what was sent.
 */
import { connect, type Socket } from 'node:net';
import { HTTP_CODE, LIMITS, LOG_UPLOAD_PATH, SCHEDULE_PATH, SERVER_CODE } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../src/server.js';
import { httpJson, startTestServer } from '../support/clients.js';
import { canonicalHeader, tc3Date, tc3Signature } from '../../src/cloud-api/tc3-signature.js';
import { HTTP_LIMITS } from '../../src/gateway/gateway.js';

const CLOUD_KEY = { secretId: 'AKIDhostileinput01', secretKey: 'hostile-input-cloud-secret-0123456' };
const APP = { sdkAppId: 1400300077, secretKey: 'hostile-input-secret-0123456789', adminKey: 'hostile-input-admin-key-012345', cloudApiKeys: [CLOUD_KEY] };

/** A correctly signed cloud API request (TC3-HMAC-SHA256, X-TC-Timestamp signed). */
function signedCloudApi(server: RunningServer, action: string, body: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const date = tc3Date(timestamp);
  const signature = tc3Signature({
    method: 'POST', path: '/', query: '', payload: Buffer.from(body), timestamp, date, service: 'trtc',
    signedHeaders: ['x-tc-timestamp'], canonicalHeaders: [canonicalHeader('x-tc-timestamp', String(timestamp))],
  }, CLOUD_KEY.secretKey);
  return httpJson(`${server.url}/`, { method: 'POST', body, headers: {
    'content-type': 'application/json', 'x-tc-action': action, 'x-tc-version': '2019-07-22', 'x-tc-timestamp': String(timestamp),
    authorization: `TC3-HMAC-SHA256 Credential=${CLOUD_KEY.secretId}/${date}/trtc/tc3_request, SignedHeaders=x-tc-timestamp, Signature=${signature}`,
  } });
}

/** Opens a raw TCP connection to the server. */
function rawSocket(server: RunningServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent and when it closed the connection (ms after `since`); rejects after `timeoutMs`. */
function serverCloses(socket: Socket, since: number, timeoutMs: number): Promise<{ afterMs: number; received: string }> {
  let received = '';
  socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1'); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${timeoutMs} ms (received: ${received.slice(0, 200)})`)), timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ afterMs: performance.now() - since, received });
    });
    socket.on('error', () => undefined); // a reset counts as closed
  });
}

/** Writes `total` bytes in `chunk`-byte pieces as fast as the socket takes them; stops when it closes. Resolves with bytes written. */
async function flood(socket: Socket, total: number, chunk = 64 * 1024): Promise<number> {
  const piece = Buffer.alloc(chunk, 0x61);
  let written = 0;
  while (written < total && !socket.destroyed && socket.writable) {
    const ok = socket.write(piece);
    written += chunk;
    if (!ok) {
      const drained = await new Promise<boolean>((resolve) => {
        socket.once('drain', () => resolve(true));
        socket.once('close', () => resolve(false));
      });
      if (!drained) break;
    }
  }
  return written;
}

describe.concurrent('hostile input: oversized and slow requests are refused within bounds', () => {
  // The tests run at once (the slowloris one waits out the header time-out) against one server.
  let server: RunningServer;
  beforeAll(async () => { server = await startTestServer({ apps: [APP] }); });
  afterAll(() => server.close());

  it('slowloris: a request whose headers trickle in is cut off after the header time-out, and the server still answers others', async () => {
    const socket = await rawSocket(server);
    const started = performance.now();
    const closed = serverCloses(socket, started, HTTP_LIMITS.headersTimeoutMs + HTTP_LIMITS.checkIntervalMs + 5_000);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One header line a second, never the blank line that ends them.
    let n = 0;
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write(`X-Slow-${n++}: a\r\n`); }, 1_000);
    try {
      const { afterMs, received } = await closed;
      expect(afterMs).toBeGreaterThanOrEqual(HTTP_LIMITS.headersTimeoutMs - 100);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect((await httpJson(`${server.url}/healthz`)).status).toBe(200);
  }, 30_000);

  it('38.low a small body trickled in is cut off after the body time-out (a few seconds, not the 120 s request time-out), and the server still answers others', async () => {
    const socket = await rawSocket(server);
    const started = performance.now();
    const closed = serverCloses(socket, started, 12_000);
    socket.write(`POST /api/v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write(' '); }, 500);
    try {
      const { afterMs, received } = await closed;
      expect(afterMs).toBeGreaterThanOrEqual(HTTP_LIMITS.bodyTimeoutMs - 100);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(received).toContain(String(HTTP_CODE.BODY_TIMEOUT));
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect((await httpJson(`${server.url}/healthz`)).status).toBe(200);
  }, 30_000);

  it('38.low open HTTP connections per address are capped (limits.httpConnectionsPerIp): past it a connection is closed at once and counted', async () => {
    // (The cap is never below connectionsPerIp: WebSockets are HTTP connections until upgraded.)
    const capped = await startTestServer({ apps: [APP], limits: { httpConnectionsPerIp: 3, connectionsPerIp: 3 } });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) sockets.push(await rawSocket(capped));
      // The next one is reset at once (the client may see the reset before its connect completes).
      const extra = connect(capped.port, '127.0.0.1');
      sockets.push(extra);
      await serverCloses(extra, performance.now(), 2_000);
      // One of the three goes away: a new connection is served again.
      sockets[0].destroy();
      const metrics = async () => {
        try {
          return await (await fetch(`${capped.url}/metrics`)).text();
        } catch {
          return 'refused';
        }
      };
      await expect.poll(metrics, { timeout: 5_000 }).toMatch(/conclave_connections_refused_total\{reason="http-per-address"\} [1-9]/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await capped.close();
    }
  }, 30_000);

  it('a huge body is refused with 413 once past the route limit, and the connection is cut instead of read to the end', async () => {
    for (const [path, headers] of [
      [`${LOG_UPLOAD_PATH}?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, 'Content-Type: application/json'],
      [LOG_UPLOAD_PATH, 'Content-Type: application/json'], // refused on its query, before the body is read
      ['/', 'Content-Type: application/json\r\nX-TC-Action: DescribeRoomInfo\r\nX-TC-Version: 2019-07-22'], // the cloud API
      ['/api/v1/nothing', 'Content-Type: application/json'], // no route at all
      [`/admin/v1/apps/${APP.sdkAppId}/rooms`, 'Content-Type: application/json'], // a route that takes no body
    ] as const) {
      const socket = await rawSocket(server);
      const started = performance.now();
      const closed = serverCloses(socket, started, 15_000);
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\nContent-Length: ${2 ** 40}\r\n\r\n`);
      const written = await flood(socket, 1024 ** 3); // 1 GiB offered
      const { received } = await closed;
      expect([path, received.split('\r\n')[0]]).toEqual([path, expect.stringMatching(/^HTTP\/1\.1 (413|400|404|405|200)/)]);
      // Cut off long before the gigabyte: the server read at most a few times its limit (plus socket buffers).
      expect(written, path).toBeLessThan(64 * 1024 * 1024);
      socket.destroy();
    }
    expect((await httpJson(`${server.url}/healthz`)).status).toBe(200);
  }, 60_000);

  it('deeply nested JSON is refused as invalid (400), not a crash, on every JSON surface', async () => {
    // Nested as deep as each route's body limit allows: 1 MiB for log uploads, 16 KiB for the others.
    const nested = (bytes: number) => [`${'['.repeat(bytes / 2)}${']'.repeat(bytes / 2)}`, `${'{"a":'.repeat(bytes / 6)}1${'}'.repeat(bytes / 6)}`];
    for (const body of nested(1000 * 1000)) {
      const upload = await httpJson(`${server.url}${LOG_UPLOAD_PATH}?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(upload.status).toBe(400);
      expect(upload.body).toMatchObject({ code: SERVER_CODE.INVALID_PARAMETER });
    }
    for (const body of nested(15_000)) {
      const ban = await httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/rooms/1/users/u/ban`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${APP.adminKey}` }, body });
      expect(ban.status).toBe(400);
      const schedule = await httpJson(`${server.url}${SCHEDULE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(schedule.status).toBe(200); // scheduling refuses in its body
      expect(schedule.body.code).not.toBe(0);
      const beacon = await httpJson(`${server.url}/api/v1/stats`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(beacon.status).toBe(400);
    }
    // TRTC's cloud API (1 MiB bodies), signed so the body reaches the action: refused in the API's shape.
    for (const body of nested(1000 * 1000)) {
      const answer = await signedCloudApi(server, 'RemoveUser', body);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ Response: { Error: { Code: expect.stringMatching(/^(InvalidParameter|MissingParameter)/) } } });
    }
    // The signing above is right: a well-formed request is answered (nobody to remove, but no error about it).
    const wellFormed = await signedCloudApi(server, 'RemoveUser', JSON.stringify({ SdkAppId: APP.sdkAppId, RoomId: 1, UserIds: ['u'] }));
    expect(wellFormed.body.Response).not.toHaveProperty('Error.Code', expect.stringMatching(/^AuthFailure/));
    // Nothing was banned by any of it.
    const bans = await httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/bans`, { headers: { authorization: `Bearer ${APP.adminKey}` } });
    expect(bans.body).toEqual({ bans: [] });
    expect((await httpJson(`${server.url}/healthz`)).status).toBe(200);
  }, 30_000);

  it('a WebSocket frame over the limit closes that connection (1009) without being buffered; one over the message limit is answered', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/signal`);
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    // The first reply, awaited on the socket's own event (a bounded wait, no poll).
    const firstReply = new Promise<{ code: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply to the oversized message within 5 s')), 5_000);
      socket.once('message', (raw) => { clearTimeout(timer); resolve(JSON.parse(raw.toString()) as { code: number }); });
    });
    socket.send('x'.repeat(LIMITS.MAX_MESSAGE_BYTES + 1));
    expect((await firstReply).code).toBe(SERVER_CODE.MESSAGE_TOO_LARGE);
    const started = performance.now();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(Buffer.alloc(64 * 1024 * 1024, 0x78)); // 64 MiB in one frame
    expect(await closed).toBe(1009);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await httpJson(`${server.url}/healthz`)).status).toBe(200);
  }, 30_000);
});
