/**
 * The server platform as a user of the SDK meets it in a real browser: the admin API removes users
 * (kicked-out with the reason), bans keep them out, a dismissed room empties; refusals of the platform
 * (no package, out of credit, a privateMapKey for another room) reach the app as SERVER_ERROR with the
 * server's code as extraCode.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { genPrivateMapKey, genUserSig, PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppFixture, stopAppFixture } from './harness/fixture.js';
import type { LaunchedBrowser } from './harness/browser.js';
import { AppHost, call, eventsOf } from './harness/client-page.js';
import { join } from './harness/join.js';
import { TEST_APP, type TestServer } from './harness/server.js';

const ADMIN_KEY = 'e2e-admin-key-0123456789abcdef';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const APP = { ...TEST_APP, adminKey: ADMIN_KEY };
const UNPAID = { sdkAppId: 1400700002, secretKey: 'conclave-e2e-unpaid-key-012345678', billing: 'no-package' as const };
const BROKE = { sdkAppId: 1400700003, secretKey: 'conclave-e2e-broke-key-0123456789', billing: 'out-of-credit' as const };

describe('server platform in a real browser', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;
  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${server.url}/admin/v1/apps/${APP.sdkAppId}/${path}`, {
      method, headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };

  beforeAll(async () => {
    ({ server, app, browser } = await startAppFixture({ apps: [APP, UNPAID, BROKE] }));
  });

  afterAll(() => stopAppFixture({ server, app, browser }));

  it('a kick through the admin API gives the user kicked-out (kick); the room goes on for the others', async () => {
    const stays = await app.open(browser.context);
    const kicked = await app.open(browser.context);
    expect(await join(stays, server, 'stays', { roomId: 8001 }, { publish: false })).toEqual({ ok: true });
    expect(await join(kicked, server, 'to-kick', { roomId: 8001 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await admin('rooms/8001/users')).body.users, { timeout: 10_000 }).toHaveLength(2);

    expect((await admin('rooms/8001/users/to-kick/kick', 'POST', { reason: 'e2e kick' })).body).toMatchObject({ kicked: true });
    await expect.poll(async () => (await eventsOf(kicked, 'kicked-out')).map((e) => e.data), { timeout: 10_000 }).toEqual([{ reason: 'kick', message: 'e2e kick' }]);
    await expect.poll(async () => (await eventsOf(stays, 'remote-user-exit')).map((e) => e.data.userId), { timeout: 10_000 }).toContain('to-kick');
    expect((await admin('rooms/8001/users')).body.users).toEqual([expect.objectContaining({ userId: 'stays' })]);
    expect(await eventsOf(stays, 'kicked-out')).toEqual([]);
    // The kicked client is out: it can leave, and join again.
    expect(await call(kicked, 'exitRoom')).toMatchObject({ ok: true });
    expect(await join(kicked, server, 'to-kick', { roomId: 8001 }, { publish: false, reuse: true })).toEqual({ ok: true });
    await kicked.close();
    await stays.close();
  });

  it('a ban gives kicked-out (banned) and a rejoin is refused with SERVER_ERROR / -1011 until lifted', async () => {
    const page = await app.open(browser.context);
    expect(await join(page, server, 'to-ban', { roomId: 8002 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await admin('rooms/8002/users')).body.users, { timeout: 10_000 }).toHaveLength(1);
    expect((await admin('rooms/8002/users/to-ban/ban', 'POST', { seconds: 600 })).body).toMatchObject({ banned: true, wasInRoom: true });
    await expect.poll(async () => (await eventsOf(page, 'kicked-out')).map((e) => e.data.reason), { timeout: 10_000 }).toEqual(['banned']);
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
    const refused = await join(page, server, 'to-ban', { roomId: 8002 }, { publish: false, reuse: true });
    expect(refused).toMatchObject({ ok: false, name: 'RtcError', code: 5400, extraCode: -1011 });
    expect((await admin('rooms/8002/users/to-ban/ban', 'DELETE')).body).toMatchObject({ unbanned: true });
    expect(await join(page, server, 'to-ban', { roomId: 8002 }, { publish: false, reuse: true })).toEqual({ ok: true });
    await page.close();
  });

  it('dismissing a room gives everyone kicked-out (room_disband)', async () => {
    const pages = [await app.open(browser.context), await app.open(browser.context)];
    for (const [i, page] of pages.entries()) expect(await join(page, server, `member-${i}`, { strRoomId: 'dismiss-me' }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await admin(`rooms/${encodeURIComponent('s:dismiss-me')}/users`)).body.users, { timeout: 10_000 }).toHaveLength(2);
    expect((await admin(`rooms/${encodeURIComponent('s:dismiss-me')}/dismiss`, 'POST')).body).toMatchObject({ dismissed: true });
    for (const page of pages) {
      await expect.poll(async () => (await eventsOf(page, 'kicked-out')).map((e) => e.data.reason), { timeout: 10_000 }).toEqual(['room_disband']);
    }
    expect((await admin(`rooms/${encodeURIComponent('s:dismiss-me')}`)).status).toBe(404);
    for (const page of pages) await page.close();
  });

  it('the demo admin page: sign in with the admin key, see the room and its users, kick one (kicked-out in their page)', async () => {
    const member = await app.open(browser.context);
    const other = await app.open(browser.context);
    expect(await join(member, server, 'page-kicked', { roomId: 8004 }, { publish: false })).toEqual({ ok: true });
    expect(await join(other, server, 'page-stays', { roomId: 8004 }, { publish: false })).toEqual({ ok: true });

    const adminPage = await browser.context.newPage();
    adminPage.on('pageerror', (error) => console.error('[admin page error]', error.message));
    await adminPage.goto(`${server.url}/admin.html`);
    // A wrong key is refused with the server's code; the right one opens the app.
    await adminPage.getByTestId('admin-app-id').fill(String(APP.sdkAppId));
    await adminPage.getByTestId('admin-key').fill('not-the-admin-key-000000');
    await adminPage.getByTestId('admin-connect').click();
    await expect.poll(() => adminPage.getByTestId('admin-error').textContent(), { timeout: 10_000 }).toContain('-2002');
    await adminPage.getByTestId('admin-key').fill(ADMIN_KEY);
    await adminPage.getByTestId('admin-connect').click();
    await adminPage.getByTestId('admin-app-summary').waitFor({ timeout: 10_000 });
    await adminPage.getByTestId('admin-room-8004').click();
    await adminPage.getByTestId('admin-user-page-kicked').waitFor({ timeout: 10_000 });
    await adminPage.getByTestId('admin-user-page-stays').waitFor({ timeout: 10_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await adminPage.screenshot({ path: `${ARTIFACTS}admin-page.png` });
    await adminPage.getByTestId('admin-kick-page-kicked').click();
    await expect.poll(async () => (await eventsOf(member, 'kicked-out')).map((e) => e.data.reason), { timeout: 10_000 }).toEqual(['kick']);
    await expect.poll(() => adminPage.getByTestId('admin-notice').textContent(), { timeout: 10_000 }).toContain('page-kicked was kicked');
    await expect.poll(() => adminPage.getByTestId('admin-user-page-kicked').count(), { timeout: 10_000 }).toBe(0);
    expect(await eventsOf(other, 'kicked-out')).toEqual([]);
    for (const page of [adminPage, member, other]) await page.close();
  });

  it("the platform's refusals reach the app as SERVER_ERROR with the server's code: no package, out of credit, privateMapKey of another room", async () => {
    const page = await app.open(browser.context);
    const enterWith = (userId: string, enter: Record<string, unknown>) => join(page, server, userId, { roomId: 8003 }, { publish: false, enter });
    const unpaid = await enterWith('u1', { sdkAppId: UNPAID.sdkAppId, userSig: await genUserSig({ ...UNPAID, userId: 'u1' }) });
    expect(unpaid).toMatchObject({ ok: false, name: 'RtcError', code: 5400, extraCode: 5401 });
    const broke = await enterWith('u2', { sdkAppId: BROKE.sdkAppId, userSig: await genUserSig({ ...BROKE, userId: 'u2' }) });
    expect(broke).toMatchObject({ ok: false, code: 5400, extraCode: -100013 });
    const privateMapKey = await genPrivateMapKey({ ...TEST_APP, userId: 'u3', roomId: 9999, privilegeMap: PRIVILEGE.ALL });
    const wrongRoom = await enterWith('u3', { privateMapKey });
    expect(wrongRoom).toMatchObject({ ok: false, code: 5400, extraCode: -100027 });
    const rightKey = await genPrivateMapKey({ ...TEST_APP, userId: 'u3', roomId: 8003, privilegeMap: PRIVILEGE.ALL });
    expect(await enterWith('u3', { privateMapKey: rightKey })).toEqual({ ok: true });
    await page.close();
  });
});
