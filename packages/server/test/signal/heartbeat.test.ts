import { genUserSig } from '@conclave/usersig';
import type { PushMessage, ReplyMessage } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../src/server.js';

const APP = { sdkAppId: 1400000789, secretKey: 'heartbeat-test-secret-key-0123456' };

/** A bare WebSocket client speaking the protocol. */
async function connect(server: RunningServer) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/signal`);
  const messages: (ReplyMessage | PushMessage)[] = [];
  ws.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  const request = async (cmd: string, data: unknown) => {
    const requestId = ++id;
    ws.send(JSON.stringify({ id: requestId, cmd, data }));
    await expect.poll(() => messages.find((m) => 'id' in m && m.id === requestId), { timeout: 5000 }).toBeDefined();
    return messages.find((m): m is ReplyMessage => 'id' in m && m.id === requestId)!;
  };
  return { ws, messages, request };
}

const join = async (userId: string) => ({
  sdkAppId: APP.sdkAppId, userId, userSig: await genUserSig({ ...APP, userId }), roomId: '77', useStringRoomId: false,
  trtcRole: 20, trtcScene: 1, version: '5.10.1', ua: 'test', terminalType: 15,
});

describe('signalling heartbeat', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', apps: [APP], devMode: false, logLevel: 'silent', heartbeatTimeoutMs: 1500, sessionGraceMs: 500, storage: { path: ':memory:' } }, {});
  });
  afterAll(async () => {
    await server.close();
  });

  it('removes a silent client after the heartbeat time-out and the session grace, and tells the room', async () => {
    const live = await connect(server);
    const silent = await connect(server);
    expect((await live.request('join', await join('live'))).code).toBe(0);
    expect((await silent.request('join', await join('silent'))).code).toBe(0);
    const started = Date.now();
    // `live` keeps beating; `silent` says nothing more, but its socket stays open.
    const beat = setInterval(() => live.ws.send(JSON.stringify({ id: 1000, cmd: 'heartbeat', data: {} })), 300);
    try {
      await expect.poll(() => live.messages.find((m) => 'push' in m && m.push === 'peer-leave'), { timeout: 5000 }).toBeDefined();
    } finally {
      clearInterval(beat);
    }
    const leave = live.messages.find((m): m is PushMessage => 'push' in m && m.push === 'peer-leave')!;
    expect(leave.data).toMatchObject({ userId: 'silent', reason: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(server.stats().users).toBe(1);
    live.ws.close();
  });
});
