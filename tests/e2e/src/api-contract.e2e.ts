import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppFixture, stopAppFixture } from './harness/fixture.js';
import type { LaunchedBrowser } from './harness/browser.js';
import { AppHost, call, eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { TEST_APP, type TestServer } from './harness/server.js';
import { SilentSignalServer } from './harness/silent-signal-server.js';

describe('SDK API contract in a real browser', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    ({ server, app, browser } = await startAppFixture());
  });

  afterAll(() => stopAppFixture({ server, app, browser }));

  it('room state machine: duplicate join, destroy while joined, a destroyed client refuses every call', async () => {
    const page = await app.open(browser.context);
    expect(await join(page, server, 'state-user', { roomId: 5001 }, { publish: false })).toEqual({ ok: true });
    const again = await call(page, 'enterRoom', { sdkAppId: TEST_APP.sdkAppId, userId: 'state-user', userSig: await server.sig('state-user'), roomId: 5001 });
    expect(again).toMatchObject({ ok: false, name: 'RtcError', code: 5100, extraCode: 5104, functionName: 'enterRoom' });
    expect(again.message).toContain('duplicate join() called');
    // switchRole is for the live scene only.
    const rtcSwitch = await call(page, 'switchRole', 'audience');
    expect(rtcSwitch).toMatchObject({ ok: false, code: 5100 });
    expect(rtcSwitch.message).toContain('switchRole can only be called in live mode');
    const destroyJoined = await call(page, 'destroy');
    expect(destroyJoined).toMatchObject({ ok: false, code: 5100, functionName: 'destroy' });
    expect(destroyJoined.message).toContain('please call leave() before destroy()');
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
    expect(await call(page, 'destroy')).toMatchObject({ ok: true });
    for (const [method, args] of [['enterRoom', [{ sdkAppId: 1, userId: 'x', userSig: 'y', roomId: 1 }]], ['startLocalVideo', []], ['exitRoom', []], ['muteRemoteAudio', ['*', true]]] as const) {
      const result = await call(page, method, ...args);
      expect(result).toMatchObject({ ok: false, code: 5100, functionName: method });
      expect(result.message).toContain('client destroyed');
    }
    await page.close();
  });

  it('exitRoom during a join aborts it cleanly', async () => {
    const page = await app.open(browser.context);
    await page.evaluate(() => (window as unknown as { e2e: { create(o: unknown): void } }).e2e.create({}));
    const sig = await server.sig('aborter');
    const outcome = await page.evaluate(async ({ sig, sdkAppId }) => {
      const client = (window as unknown as { e2e: { client: { enterRoom(c: unknown): Promise<void>; exitRoom(): Promise<void> } } }).e2e.client;
      const joining = client.enterRoom({ sdkAppId, userId: 'aborter', userSig: sig, roomId: 5002 }).then(() => 'joined', (e: { code: number; message: string }) => `${e.code}:${e.message}`);
      await client.exitRoom();
      return joining;
    }, { sig, sdkAppId: TEST_APP.sdkAppId });
    expect(outcome).toMatch(/^5998:connection aborted/);
    expect(await call(page, 'destroy')).toMatchObject({ ok: true });
    await page.close();
  });

  it('serialises start/update/stop of a local resource', async () => {
    const page = await app.open(browser.context);
    await page.evaluate(() => (window as unknown as { e2e: { create(o: unknown): void } }).e2e.create({}));
    const results = await page.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: Record<string, (...a: unknown[]) => Promise<void>> } }).e2e.client;
      const settle = (p: Promise<void>) => p.then(() => 'ok', (e: { extraCode?: number; code: number }) => `${e.code}/${e.extraCode ?? ''}`);
      const updateBefore = await settle(client.updateLocalVideo({ option: { profile: '360p' } }));
      const first = settle(client.startLocalVideo({ view: null }));
      const duplicate = settle(client.startLocalVideo({ view: null }));
      const update = settle(client.updateLocalVideo({ option: { profile: '240p' } }));
      const stop1 = client.stopLocalVideo();
      const stop2 = client.stopLocalVideo();
      const stops = await Promise.all([settle(stop1), settle(stop2)]);
      const updateAfter = await settle(client.updateLocalVideo({ option: { profile: '360p' } }));
      return { updateBefore, first: await first, duplicate: await duplicate, update: await update, stops, updateAfter };
    });
    expect(results).toEqual({
      updateBefore: '5100/5105', first: 'ok', duplicate: '5100/5104', update: 'ok', stops: ['ok', 'ok'], updateAfter: '5100/5105',
    });
    // A failed start (no such camera) cancels the update queued behind it.
    const failed = await page.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: Record<string, (...a: unknown[]) => Promise<void>> } }).e2e.client;
      const settle = (p: Promise<void>) => p.then(() => 'ok', (e: { extraCode?: number; code: number }) => `${e.code}/${e.extraCode ?? ''}`);
      const start = settle(client.startLocalVideo({ view: null, option: { cameraId: 'no-such-camera' } }));
      const update = settle(client.updateLocalVideo({ option: { profile: '240p' } }));
      return { start: await start, update: await update };
    });
    expect(failed.start).toMatch(/^5300\//);
    expect(failed.update).toBe('5998/');
    await page.close();
  });

  it("exceeding the per-second call limit gives 'call frequency limit exceeded'", async () => {
    const page = await app.open(browser.context);
    await page.evaluate(() => (window as unknown as { e2e: { create(o: unknown): void } }).e2e.create({}));
    const messages = await page.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { muteRemoteAudio(u: string, m: boolean): Promise<void> } } }).e2e.client;
      const outcomes = await Promise.all(Array.from({ length: 40 }, () => client.muteRemoteAudio('*', true).then(() => 'ok', (e: Error) => e.message)));
      return outcomes;
    });
    expect(messages.filter((m) => m === 'ok').length).toBeGreaterThan(0);
    expect(messages.some((m) => m.includes('call frequency limit exceeded'))).toBe(true);
    await page.close();
  });

  it("an audience in live cannot publish (SDK error, and a server refusal with the SDK bypassed) and is hidden; switchRole to anchor enters and publishes to the other page, back to audience exits with reason 3 (role change), to anchor again enters", async () => {
    const viewer = await app.open(browser.context);
    const audience = await app.open(browser.context);
    expect(await join(viewer, server, 'viewer', { roomId: 5010 }, { scene: 'live', role: 'anchor', publish: false })).toEqual({ ok: true });
    // The audience starts its camera before joining: it stays local until switchRole('anchor').
    expect(await join(audience, server, 'listener', { roomId: 5010 }, { scene: 'live', role: 'audience' })).toEqual({ ok: true });
    // Hidden (docs/behaviour.md §3.5): the viewer is told the audience count (Conclave's event), never the listener's enter.
    const counts = async (page: typeof viewer) => (await eventsOf(page, 'audience-count-changed')).map((e) => e.data.count);
    await expect.poll(() => counts(viewer), { timeout: 10_000 }).toContain(1);
    expect(await counts(audience)).toContain(1);
    const entered = async () => (await eventsOf(viewer, 'remote-user-enter')).filter((e) => e.data.userId === 'listener').length;
    expect(await entered()).toBe(0);
    const refused = await call(audience, 'startScreenShare', { view: null });
    expect(refused).toMatchObject({ ok: false, code: 5100, extraCode: 5107 });
    expect(refused.message).toContain("no permission to publish under live/audience, call switchRole('anchor') first");
    const custom = await audience.evaluate(() => {
      try {
        (window as unknown as { e2e: { client: { sendCustomMessage(m: unknown): void } } }).e2e.client.sendCustomMessage({ cmdId: 1, data: new ArrayBuffer(4) });
        return 'sent';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(custom).toContain('role audience cannot call this api');
    expect(await eventsOf(viewer, 'remote-video-available')).toEqual([]);

    // Bypassing the SDK: a raw signalling client joined as audience asks to publish.
    const sig = await server.sig('rogue');
    const bypass = await audience.evaluate(async ({ url, sig, sdkAppId }) => {
      const ws = new WebSocket(url);
      const replies: { id: number; code: number; message: string }[] = [];
      await new Promise((resolve) => { ws.onopen = resolve; });
      ws.onmessage = (event) => { const msg = JSON.parse(event.data); if ('id' in msg) replies.push(msg); };
      const send = (id: number, cmd: string, data: unknown) => ws.send(JSON.stringify({ id, cmd, data }));
      send(1, 'join', { sdkAppId, userId: 'rogue', userSig: sig, roomId: '5010', useStringRoomId: false, trtcRole: 21, trtcScene: 2, version: 'raw', ua: 'raw', terminalType: 15 });
      const wait = (id: number) => new Promise<{ code: number; message: string }>((resolve) => {
        const timer = setInterval(() => { const r = replies.find((x) => x.id === id); if (r) { clearInterval(timer); resolve(r); } }, 20);
      });
      const joined = await wait(1);
      send(2, 'publish', { sdp: 'v=0\r\n' });
      send(3, 'mute-flag', { flag: 9 });
      const published = await wait(2);
      const flagged = await wait(3);
      ws.close();
      return { joined: joined.code, publish: published, flag: flagged.code };
    }, { url: server.url.replace('http', 'ws') + '/signal', sig, sdkAppId: TEST_APP.sdkAppId });
    expect(bypass.joined).toBe(0);
    expect(bypass.publish.code).toBeLessThan(0);
    expect(bypass.publish.message).toMatch(/no permission to publish/);
    expect(bypass.flag).toBeLessThan(0);

    expect(await call(audience, 'switchRole', 'anchor')).toMatchObject({ ok: true });
    await expect.poll(entered, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await eventsOf(viewer, 'remote-video-available')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('listener');
    await watch(viewer, 'listener');
    await expect.poll(async () => (await media(viewer)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);

    // Back to audience: the uplink closes first and the viewer sees the streams go, then the user exit (role change).
    expect(await call(audience, 'switchRole', 'audience')).toMatchObject({ ok: true });
    await expect.poll(async () => (await eventsOf(viewer, 'remote-user-exit')).filter((e) => e.data.userId === 'listener').map((e) => e.data.reason), { timeout: 10_000 }).toEqual([3]);
    expect((await eventsOf(viewer, 'remote-video-unavailable')).map((e) => e.data.userId)).toContain('listener');
    // And an anchor again: it enters again.
    expect(await call(audience, 'switchRole', 'anchor')).toMatchObject({ ok: true });
    await expect.poll(entered, { timeout: 10_000 }).toBe(2);
    await viewer.close();
    await audience.close();
  });

  it('a kicked user gets kicked-out and the room goes on for the others', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 5020 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 5020 })).toEqual({ ok: true });
    // The server kicks bob's first session when bob joins again from elsewhere.
    const bobAgain = await app.open(browser.context);
    expect(await join(bobAgain, server, 'bob', { roomId: 5020 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'kicked-out')).map((e) => e.data.reason), { timeout: 10_000 }).toEqual(['kick']);
    const states = (await eventsOf(bob, 'connection-state-changed')).map((e) => e.data.state);
    expect(states[states.length - 1]).toBe('DISCONNECTED');
    // A kicked client is out of the room: it can leave and be destroyed.
    expect(await call(bob, 'destroy')).toMatchObject({ ok: true });
    // alice still gets bob's new session's media.
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await watch(alice, 'bob');
    await expect.poll(async () => (await media(alice)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    for (const page of [alice, bob, bobAgain]) await page.close();
  });

  it('join times out after 5 s, is retried once with a fresh schedule, then fails with SPEC\'s message', async () => {
    const silent = await SilentSignalServer.start();
    const page = await app.open(browser.context);
    const schedules: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/config')) schedules.push(request.url());
    });
    const started = Date.now();
    const result = await join(page, server, 'patient', { roomId: 5030 }, { publish: false, enter: { proxy: { websocketProxy: silent.url } } });
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, name: 'RtcError', code: 5500 });
    expect(result.message).toContain('join room timeout');
    expect(silent.connections).toBe(2);
    // A new user has no cached schedule: the first attempt asks, and the retry asks again (a fresh schedule).
    // Main and backup host are the same server here, so each attempt is one request.
    expect(schedules).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(2 * 5000);
    await page.close();
    await silent.close();
  });

  it('caches the scheduling result: a second join of the same user does not ask again', async () => {
    const page = await app.open(browser.context);
    let schedules = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/config')) schedules++;
    });
    expect(await join(page, server, 'cached-user', { roomId: 5040 }, { publish: false })).toEqual({ ok: true });
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
    expect(await join(page, server, 'cached-user', { roomId: 5041 }, { publish: false, reuse: true })).toEqual({ ok: true });
    expect(schedules).toBe(1);
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('conclave_schedule_') && k.endsWith('_cached-user')));
    expect(stored).toHaveLength(1);
    await page.close();
  });

  it('TRTC.isSupported() reports the real capabilities of this Chromium, and the constants are frozen', async () => {
    const page = await app.open(browser.context);
    const report = await page.evaluate(async () => {
      const T = (window as unknown as { TRTC: { isSupported(): Promise<{ result: boolean; detail: Record<string, boolean> }>; EVENT: object; TYPE: object; ERROR_CODE: object } }).TRTC;
      const support = await T.isSupported();
      return { ...support, frozen: [T.EVENT, T.TYPE, T.ERROR_CODE].every((o) => Object.isFrozen(o)) };
    });
    expect(report.result).toBe(true);
    expect(report.detail).toMatchObject({
      isBrowserSupported: true, isWebRTCSupported: true, isMediaDevicesSupported: true, isScreenShareSupported: true,
      isSmallStreamSupported: true, isH264DecodeSupported: true, isVp8EncodeSupported: true, isVp8DecodeSupported: true,
    });
    expect(typeof report.detail.isH264EncodeSupported).toBe('boolean');
    expect(typeof report.detail.isWebCodecsSupported).toBe('boolean');
    expect(report.frozen).toBe(true);
    await page.close();
  });
});
