import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAG } from '@conclave/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { CallbackReceiver } from '../../../../tests/kit/callback-receiver.js';
import { httpJson, joined, metricsText, startTestServer, type WsClient } from '../support/clients.js';
import { waitFor } from '../support/engine-peers.js';

const KEY = 'callbackKey0123456789';
const app = (url: string) => ({ sdkAppId: 1400200001, secretKey: 'callback-test-app-secret-0123', adminKey: 'callback-admin-key-0123456789', callback: { url, key: KEY } });
const dirs: string[] = [];
const open: { close(): unknown }[] = [];

afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function server(url: string, storagePath = ':memory:'): Promise<RunningServer> {
  const started = await startTestServer({ apps: [app(url)], storage: { path: storagePath }, limits: { callbackRetrySeconds: 1 }, heartbeatTimeoutMs: 120_000 });
  open.push(started);
  return started;
}

async function user(s: RunningServer, userId: string, roomId: string): Promise<WsClient> {
  const client = await joined(s, app(''), userId, roomId);
  open.push(client);
  return client;
}

describe('event callbacks', () => {
  it('the receiver verifies Sign on enter, media and exit events of a call, in order per room', async () => {
    const receiver = await CallbackReceiver.start(KEY);
    open.push({ close: () => receiver.down() });
    const s = await server(receiver.url);
    const alice = await user(s, 'alice', '4242');
    const bob = await user(s, 'bob', '4242');
    expect((await alice.request('mute-flag', { flag: FLAG.VIDEO | FLAG.AUDIO })).code).toBe(0);
    expect((await alice.request('mute-flag', { flag: FLAG.VIDEO })).code).toBe(0);
    expect((await bob.request('leave', {})).code).toBe(0);
    expect((await alice.request('leave', {})).code).toBe(0);
    const expected = ['101:', '103:alice', '103:bob', '201:alice', '203:alice', '204:alice', '104:bob', '104:alice', '102:'];
    await waitFor(() => receiver.received.length >= expected.length, 10_000, 'every callback');
    expect(receiver.trace()).toEqual(expected);
    expect(receiver.received.every((c) => c.signOk && c.sdkAppId === '1400200001')).toBe(true);
    const enter = receiver.received[1];
    expect(enter).toMatchObject({ EventGroupId: 1, EventType: 103, EventInfo: { RoomId: 4242, UserId: 'alice', Role: 20, Reason: 1 } });
    expect(enter.EventInfo.EventMsTs).toBeGreaterThan(Date.now() - 60_000);
    expect(enter.EventInfo.EventTs).toBe(Math.floor(Number(enter.EventInfo.EventMsTs) / 1000));
    expect(receiver.received[3]).toMatchObject({ EventGroupId: 2, EventType: 201, EventInfo: { RoomId: 4242, UserId: 'alice' } });
    const metrics = await metricsText(s);
    expect(metrics).toMatch(/^conclave_callbacks_delivered_total 9$/m);
    expect(metrics).toMatch(/^conclave_callbacks_queued 0$/m);
  });

  it('with the receiver down for 30 s and the server restarted meanwhile, every event still arrives, in order, once it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conclave-callbacks-'));
    dirs.push(dir);
    const storage = join(dir, 'conclave.db');
    const receiver = await CallbackReceiver.start(KEY);
    const url = receiver.url;
    await receiver.down();
    const downAt = Date.now();
    let s = await server(url, storage);
    const carol = await user(s, 'carol', '77');
    const dave = await user(s, 'dave', '77');
    expect((await dave.request('mute-flag', { flag: FLAG.AUX })).code).toBe(0);
    expect((await dave.request('leave', {})).code).toBe(0);
    expect((await carol.request('leave', {})).code).toBe(0);
    const admin = (srv: RunningServer) => httpJson(`${srv.url}/admin/v1/apps/1400200001/callbacks`, { headers: { Authorization: `Bearer ${app('').adminKey}` } });
    const adminUntil = async (srv: RunningServer, done: (body: Record<string, unknown>) => boolean, what: string) => {
      const started = Date.now();
      for (;;) {
        const { body } = await admin(srv);
        if (done(body)) return body;
        if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // Attempts fail while the receiver is down: visible in the admin API and /metrics.
    const failing = await adminUntil(s, (body) => (body.failures as number) >= 2, 'failed attempts');
    expect(failing).toMatchObject({ url, queued: 7 });
    expect(String(failing.lastError)).toMatch(/ECONNREFUSED/);
    expect(await metricsText(s)).toMatch(/^conclave_callbacks_queued 7$/m);
    await s.close();
    open.splice(open.indexOf(s), 1);
    // The server comes back with the receiver still down; more events happen on the new run.
    s = await server(url, storage);
    const erin = await user(s, 'erin', '78');
    expect((await erin.request('mute-flag', { flag: FLAG.AUDIO })).code).toBe(0);
    await adminUntil(s, (body) => body.queued === 10, 'ten queued callbacks');
    // The receiver is back after 30 s: everything queued arrives, each room in order, nothing twice.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - downAt))));
    await receiver.up();
    open.push({ close: () => receiver.down() });
    await waitFor(() => receiver.received.length >= 10, 15_000, 'the queued callbacks');
    const inRoom = (roomId: number) => receiver.received.filter((c) => c.EventInfo.RoomId === roomId).map((c) => `${c.EventType}:${c.EventInfo.UserId ?? ''}`);
    expect(inRoom(77)).toEqual(['101:', '103:carol', '103:dave', '205:dave', '104:dave', '104:carol', '102:']);
    expect(inRoom(78)).toEqual(['101:', '103:erin', '203:erin']);
    expect(receiver.received.every((c) => c.signOk)).toBe(true);
    expect(await adminUntil(s, (body) => body.queued === 0, 'an empty queue')).toMatchObject({ queued: 0, lastError: null });
  }, 90_000);
});
