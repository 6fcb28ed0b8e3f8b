/**
 * TRTC's server API (TencentCloud API 3.0) on Conclave, driven by the official tencentcloud-sdk-nodejs trtc
 * client (unchanged but for its endpoint) against real pages: RemoveUser kicks the named user out and nobody
 * else, DismissRoom empties the room, and refused requests (bad signature, unknown SecretId) change nothing.
 */
import type { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';
import { officialTrtcClient, trtcRefusalCode } from '../../kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from './harness/browser.js';
import { CallbackReceiver } from '../../kit/callback-receiver.js';
import { AppHost, call, eventsOf } from './harness/client-page.js';
import { startAppFixture, stopAppFixture } from './harness/fixture.js';
import { join } from './harness/join.js';
import { TEST_APP, type TestServer } from './harness/server.js';
import { nextSecond } from '../../kit/next-second.js';

const KEY = { secretId: 'AKIDconclaveE2eCloudApi001', secretKey: 'conclave-e2e-cloud-api-secret-0123456' };
const ADMIN_KEY = 'e2e-cloud-api-admin-key-012345678';
const CALLBACK_KEY = 'e2eCallbackKey0123456789';

describe('cloud API with real pages', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;
  let trtc: TrtcClient;
  let sink: CallbackReceiver;
  let APP: typeof TEST_APP & { adminKey: string; cloudApiKeys: (typeof KEY)[]; callback: { url: string; key: string } };
  const usersOf = async (roomKey: string): Promise<string[]> => {
    const res = await fetch(`${server.url}/admin/v1/apps/${APP.sdkAppId}/rooms/${encodeURIComponent(roomKey)}/users`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    if (res.status === 404) return [];
    return ((await res.json()) as { users: { userId: string }[] }).users.map((u) => u.userId).sort();
  };

  beforeAll(async () => {
    sink = await CallbackReceiver.start(CALLBACK_KEY);
    APP = { ...TEST_APP, adminKey: ADMIN_KEY, cloudApiKeys: [KEY], callback: { url: sink.url, key: CALLBACK_KEY } };
    ({ server, app, browser } = await startAppFixture({ apps: [APP] }));
    trtc = officialTrtcClient(server.url, KEY);
  });

  afterAll(async () => {
    await stopAppFixture({ server, app, browser });
    await sink.down();
  });

  it('RemoveUser kicks the named user out (the page gets kicked-out) and nobody else; refused requests change nothing', async () => {
    const kicked = await app.open(browser.context);
    const stays = await app.open(browser.context);
    expect(await join(kicked, server, 'cloud-kicked', { roomId: 8101 }, { publish: false })).toEqual({ ok: true });
    expect(await join(stays, server, 'cloud-stays', { roomId: 8101 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(() => usersOf('8101'), { timeout: 10_000 }).toEqual(['cloud-kicked', 'cloud-stays']);

    const request = { SdkAppId: APP.sdkAppId, RoomId: 8101, UserIds: ['cloud-kicked'] };
    const forged = officialTrtcClient(server.url, { secretId: KEY.secretId, secretKey: 'a-wrong-secret-key-0123456789' });
    const stranger = officialTrtcClient(server.url, { secretId: 'AKIDnoSuchSecretId000000', secretKey: KEY.secretKey });
    expect(await trtcRefusalCode(forged.RemoveUser(request))).toBe('AuthFailure.SignatureFailure');
    expect(await trtcRefusalCode(stranger.RemoveUser(request))).toBe('AuthFailure.SecretIdNotFound');
    expect(await usersOf('8101')).toEqual(['cloud-kicked', 'cloud-stays']);

    expect(await trtc.RemoveUser(request)).toEqual({ RequestId: expect.any(String) as string });
    await expect.poll(async () => (await eventsOf(kicked, 'kicked-out')).map((e) => e.data.reason), { timeout: 10_000 }).toEqual(['kick']);
    await expect.poll(async () => (await eventsOf(stays, 'remote-user-exit')).map((e) => e.data.userId), { timeout: 10_000 }).toContain('cloud-kicked');
    expect(await eventsOf(stays, 'kicked-out')).toEqual([]);
    expect(await usersOf('8101')).toEqual(['cloud-stays']);
    await kicked.close();
    await stays.close();
  });

  it('DismissRoom empties the room: every page gets kicked-out (room_disband)', async () => {
    const pages = [await app.open(browser.context), await app.open(browser.context)];
    for (const [i, page] of pages.entries()) expect(await join(page, server, `cloud-member-${i}`, { roomId: 8102 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(() => usersOf('8102'), { timeout: 10_000 }).toHaveLength(2);
    expect(await trtc.DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 8102 })).toEqual({ RequestId: expect.any(String) as string });
    for (const page of pages) {
      await expect.poll(async () => (await eventsOf(page, 'kicked-out')).map((e) => e.data.reason), { timeout: 10_000 }).toEqual(['room_disband']);
    }
    expect(await usersOf('8102')).toEqual([]);
    await nextSecond(); // the same DismissRoom signed in the same second would be refused as a replay (docs/behaviour.md §10.3)
    expect(await trtcRefusalCode(trtc.DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 8102 }))).toBe('FailedOperation.RoomNotExist');
    for (const page of pages) await page.close();
  });

  it('the receiver verifies Sign on enter, video and exit events of a real call, in order', async () => {
    const anchor = await app.open(browser.context);
    const viewer = await app.open(browser.context);
    const inRoom = () => sink.received.filter((e) => e.EventInfo.RoomId === 8103);
    expect(await join(anchor, server, 'cb-anchor', { roomId: 8103 })).toEqual({ ok: true });
    await expect.poll(() => inRoom().map((e) => e.EventType), { timeout: 15_000 }).toEqual(expect.arrayContaining([201, 203]));
    expect(await join(viewer, server, 'cb-viewer', { roomId: 8103 }, { publish: false })).toEqual({ ok: true });
    expect((await call(viewer, 'exitRoom')).ok).toBe(true);
    expect((await call(anchor, 'stopLocalVideo')).ok).toBe(true);
    expect((await call(anchor, 'exitRoom')).ok).toBe(true);
    const trace = () => inRoom().map((e) => `${e.EventType}:${e.EventInfo.UserId ?? ''}`);
    await expect.poll(() => trace().length, { timeout: 15_000 }).toBe(9);
    // The camera and the microphone start together: either may be announced first.
    const [created, entered, first, second, ...rest] = trace();
    expect([created, entered]).toEqual(['101:', '103:cb-anchor']);
    expect([first, second].sort()).toEqual(['201:cb-anchor', '203:cb-anchor']);
    expect(rest).toEqual(['103:cb-viewer', '104:cb-viewer', '202:cb-anchor', '104:cb-anchor', '102:']);
    expect(inRoom().every((e) => e.signOk)).toBe(true);
    expect(inRoom()[1].EventInfo).toMatchObject({ UserId: 'cb-anchor', Role: 20, Reason: 1 });
    expect(inRoom()[5].EventInfo).toMatchObject({ UserId: 'cb-viewer', Reason: 1 });
    await anchor.close();
    await viewer.close();
  });
});
