import { CROSS_ROOM_CODE, FLAG, type PushMessage } from '@conclave/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/context.js';
import { joinData } from '../support/clients.js';
import { closeEmbeddedContext, embeddedContext } from '../support/test-context.js';
import { evictParticipant } from '../../src/room/eviction.js';
import { RoomRegistry } from '../../src/room/room.js';
import { sessionClient } from '../support/session-client.js';
import { publishMedia } from '../support/session-media.js';
import { REFUSED } from '../../src/room/cross-room.js';

const APP = { sdkAppId: 1400000123, secretKey: 'cross-room-test-secret-key-0123456' };
const LIVE = { trtcScene: 2 };

const context = (): ServerContext => embeddedContext({ apps: [APP] });

describe('cross-room commands (docs/behaviour.md §7.6): the refusals, with the original\'s codes', () => {
  let ctx: ServerContext;
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await closeEmbeddedContext(ctx);
  });

  /** A session joined to `roomId`, an anchor publishing audio and video (real media) unless `audience` / `silent`. */
  async function user(userId: string, roomId: string, options: { audience?: boolean; silent?: boolean } = {}) {
    const c = sessionClient(ctx);
    const reply = await c.send('join', await joinData(APP, userId, roomId, { ...LIVE, trtcRole: options.audience ? 21 : 20 }));
    expect(reply.code, reply.message).toBe(0);
    if (!options.audience && !options.silent) stops.push(await publishMedia(c, FLAG.AUDIO | FLAG.VIDEO));
    return c;
  }

  it('refuses a missing room or user, a non-anchor (caller or target), a caller that does not publish, a second connection, and answers stop/update of nothing', async () => {
    ctx = context();
    const a1 = await user('a1', '101');
    const v1 = await user('v1', '101', { audience: true });
    const a2 = await user('a2', '102');
    await user('v2', '102', { audience: true });
    const quiet = await user('quiet', '103', { silent: true });

    const start = (c: typeof a1, data: object) => c.send('cross-room-start', data);
    // Whatever is (not) in the other room, one answer (issue 38.2: it tells nothing of that room).
    expect(await start(a1, { roomId: 999, userId: 'x' })).toMatchObject({ code: CROSS_ROOM_CODE.FAILED, message: REFUSED });
    expect(await start(a1, { roomId: 102, userId: 'nobody' })).toMatchObject({ code: CROSS_ROOM_CODE.FAILED, message: REFUSED });
    expect(await start(a1, { roomId: 102, userId: 'v2' })).toMatchObject({ code: CROSS_ROOM_CODE.FAILED, message: REFUSED });
    expect(await start(v1, { roomId: 102, userId: 'a2' })).toMatchObject({ code: CROSS_ROOM_CODE.AS_AUDIENCE });
    expect(await start(quiet, { roomId: 102, userId: 'a2' })).toMatchObject({ code: CROSS_ROOM_CODE.FAILED, message: expect.stringMatching(/does not publish/) });
    expect(await start(a1, { roomId: 101, userId: 'v1' })).toMatchObject({ code: CROSS_ROOM_CODE.INVALID_PARAM });
    expect(await start(a1, { roomId: 102 })).toMatchObject({ code: CROSS_ROOM_CODE.NOT_SUPPORT });
    expect(await start(a1, { roomId: '102', isStrRoomId: true, userId: 'a2' })).toMatchObject({ code: CROSS_ROOM_CODE.FAILED, message: REFUSED });
    expect(await a1.send('cross-room-stop', { roomId: 102 })).toMatchObject({ code: CROSS_ROOM_CODE.NOT_CONNECTED });
    expect(await a1.send('cross-room-stop', {})).toMatchObject({ code: 0 });

    expect(await start(a1, { roomId: 102, userId: 'a2' })).toMatchObject({ code: 0 });
    expect(await start(a1, { roomId: 102, userId: 'a2' })).toMatchObject({ code: CROSS_ROOM_CODE.ALREADY_CONNECTED });
    expect(await start(a2, { roomId: 101, userId: 'a1' })).toMatchObject({ code: CROSS_ROOM_CODE.ALREADY_CONNECTED });
    const update = (c: typeof a1, item: object) => c.send('cross-room-update', { updateList: [{ muteAudio: false, muteVideo: true, muteSubStream: false, ...item }] });
    expect(await update(a2, { roomId: 103, userId: 'quiet' })).toMatchObject({ code: CROSS_ROOM_CODE.NOT_CONNECTED });
    expect(await update(a2, { roomId: 101, userId: 'v1' })).toMatchObject({ code: CROSS_ROOM_CODE.USER_NOT_CONNECTED });
    expect(await update(v1, { roomId: 102, userId: 'a2' })).toMatchObject({ code: CROSS_ROOM_CODE.NOT_CONNECTED });
    expect((await a1.send('cross-room-start', { roomId: 'x'.repeat(65) })).code).toBe(-1003);
  });

  it('shows each anchor in the other room (join list, flags less the mutes), and ends it when an anchor stops publishing', async () => {
    ctx = context();
    const a1 = await user('a1', '201');
    const a2 = await user('a2', '202');
    const v2 = await user('v2', '202', { audience: true });
    expect(await a1.send('cross-room-start', { roomId: 202, userId: 'a2' })).toMatchObject({ code: 0 });
    const joinsOf = (c: typeof a1) => c.pushes('peer-join').map((p: PushMessage) => (p.data as { userId: string }).userId);
    expect(joinsOf(v2)).toContain('a1');
    expect(joinsOf(a1)).toContain('a2');
    // A late joiner of room 202 gets a1 in its user list.
    const late = sessionClient(ctx);
    const joined = await late.send('join', await joinData(APP, 'late', '202', { ...LIVE, trtcRole: 21 }));
    expect((joined.data as { userList: { userId: string }[] }).userList.map((u) => u.userId)).toEqual(expect.arrayContaining(['a1', 'a2']));
    // a2 mutes a1's video in room 202: v2 sees a1's flag without video; room 201 is untouched.
    expect(await a2.send('cross-room-update', { updateList: [{ roomId: 201, userId: 'a1', muteVideo: true }] })).toMatchObject({ code: 0 });
    const last = v2.pushes('publish-list').at(-1)!.data as { userList: { userId: string; flag: number }[] };
    expect(last.userList).toEqual([expect.objectContaining({ userId: 'a1', flag: FLAG.AUDIO })]);
    // a1 stops publishing: both rooms see the other anchor leave.
    expect((await a1.send('unpublish', {})).code).toBe(0);
    const leavesOf = (c: typeof a1) => c.pushes('peer-leave').map((p: PushMessage) => (p.data as { userId: string }).userId);
    expect(leavesOf(v2)).toContain('a1');
    expect(leavesOf(a1)).toContain('a2');
    expect(ctx.crossRooms.size).toBe(0);
    expect(await v2.send('subscribe', { srcUserId: 'a1', audio: true, bigVideo: true, smallVideo: false, auxVideo: false })).toMatchObject({ code: -1009 });
  });

  it('ends a connection when an anchor is kicked, and when a member with the visitor\'s userId joins the other room', async () => {
    ctx = context();
    await user('a1', '301');
    const a2 = await user('a2', '302');
    const v2 = await user('v2', '302', { audience: true });
    const b1 = await user('b1', '303');
    const leavesOf = (c: typeof a2) => c.pushes('peer-leave').map((p: PushMessage) => (p.data as { userId: string; reason: string }).userId);
    expect(await a2.send('cross-room-start', { roomId: 301, userId: 'a1' })).toMatchObject({ code: 0 });
    // The target anchor (it need not publish) switching to audience ends the connection too.
    const a3 = await user('a3', '304', { silent: true });
    expect(await a2.send('cross-room-start', { roomId: 304, userId: 'a3' })).toMatchObject({ code: 0 });
    expect((await a3.send('switch-role', { role: 21 })).code).toBe(0);
    expect(leavesOf(a2)).toContain('a3');
    const room301 = ctx.rooms.find(RoomRegistry.key(APP.sdkAppId, '301', false))!;
    evictParticipant(ctx, room301, room301.get('a1')!, { reason: 'kick' });
    expect(leavesOf(a2)).toContain('a1');
    expect(ctx.crossRooms.size).toBe(0);

    expect(await b1.send('cross-room-start', { roomId: 302, userId: 'a2' })).toMatchObject({ code: 0 });
    expect(v2.pushes('peer-join').map((p: PushMessage) => (p.data as { userId: string }).userId)).toContain('b1');
    await user('b1', '302', { silent: true }); // the same userId joins room 302 itself (an anchor: an audience is hidden)
    expect(ctx.crossRooms.size).toBe(0);
    const order = v2.out.filter((m): m is PushMessage => 'push' in m && (m.push === 'peer-join' || m.push === 'peer-leave')).map((m) => `${m.push}:${(m.data as { userId: string }).userId}`);
    expect(order.slice(-2)).toEqual(['peer-leave:b1', 'peer-join:b1']);
  });
});
