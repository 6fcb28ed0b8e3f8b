/**
 * Issue 31, switchRoom: one server command moves a joined client to another room. The old room's users see it
 * leave and it sees them exit; the new room's users see it enter, it decodes them, and its own camera is
 * published there; the original's errors (5019, 5020) and a refused switch that keeps the client where it was.
 */
import { describe, expect, it } from 'vitest';
import { call, eventsOf, media } from './harness/client-page.js';
import { useAppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';

const users = async (page: Parameters<typeof eventsOf>[0], type: string) => (await eventsOf(page, type)).map((e) => e.data.userId as string);

describe('switchRoom', () => {
  const fx = useAppFixture();

  it('moves to the other room: the old room sees the user leave, the new one sees it enter, and media flows both ways there', async () => {
    const [alice, bob, mover] = await Promise.all([fx.app.open(fx.browser.context), fx.app.open(fx.browser.context), fx.app.open(fx.browser.context)]);
    expect(await join(alice, fx.server, 'sw-alice', { roomId: 8401 })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'sw-bob', { roomId: 8402 })).toEqual({ ok: true });
    expect(await join(mover, fx.server, 'sw-mover', { roomId: 8401 })).toEqual({ ok: true });
    await expect.poll(() => users(mover, 'remote-video-available'), { timeout: 15_000 }).toContain('sw-alice');

    const switched = await call(mover, 'switchRoom', { roomId: 8402, userSig: await fx.server.sig('sw-mover') });
    expect(switched).toEqual({ ok: true, value: null });
    await expect.poll(() => users(mover, 'remote-user-exit'), { timeout: 10_000 }).toContain('sw-alice');
    await expect.poll(() => users(alice, 'remote-user-exit'), { timeout: 10_000 }).toContain('sw-mover');
    await expect.poll(() => users(mover, 'remote-user-enter'), { timeout: 10_000 }).toContain('sw-bob');
    await expect.poll(() => users(bob, 'remote-user-enter'), { timeout: 10_000 }).toContain('sw-mover');
    // The mover decodes bob, and bob decodes the mover's camera, published again in the new room.
    await expect.poll(() => users(mover, 'remote-video-available'), { timeout: 15_000 }).toContain('sw-bob');
    await watch(mover, 'sw-bob');
    await expect.poll(async () => (await media(mover)).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(10);
    await expect.poll(() => users(bob, 'remote-video-available'), { timeout: 15_000 }).toContain('sw-mover');
    await watch(bob, 'sw-mover');
    await expect.poll(async () => (await media(bob)).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(10);
    for (const page of [alice, bob, mover]) await page.close();
  });

  it("refuses the same room (5020), the other room type (5019) and a bad userSig, and a refused switch keeps the client in its room", async () => {
    const [stay, other] = await Promise.all([fx.app.open(fx.browser.context), fx.app.open(fx.browser.context)]);
    expect(await join(stay, fx.server, 'sw-stay', { roomId: 8411 }, { publish: false })).toEqual({ ok: true });
    expect(await join(other, fx.server, 'sw-other', { roomId: 8411 }, { publish: false })).toEqual({ ok: true });
    const userSig = await fx.server.sig('sw-stay');
    expect(await call(stay, 'switchRoom', { roomId: 8411, userSig })).toMatchObject({ ok: false, code: 5000, extraCode: 5020 });
    expect(await call(stay, 'switchRoom', { strRoomId: 'lobby', userSig })).toMatchObject({ ok: false, code: 5000, extraCode: 5019 });
    expect(await call(stay, 'switchRoom', { userSig })).toMatchObject({ ok: false, code: 5000, extraCode: 5015 });
    const refused = await call(stay, 'switchRoom', { roomId: 8412, userSig: await fx.server.sig('sw-stay', { secretKey: 'not-the-secret-key-0123456789' }) });
    expect(refused).toMatchObject({ ok: false, code: 5400, functionName: 'switchRoom' });
    // Still in 8411 with the other user: one room of two users on the server, nobody left.
    expect(await users(other, 'remote-user-exit')).toEqual([]);
    await expect.poll(() => { const { rooms, users: n } = fx.server.stats(); return { rooms, users: n }; }, { timeout: 10_000 }).toEqual({ rooms: 1, users: 2 });
    for (const page of [stay, other]) await page.close();
  });
});
