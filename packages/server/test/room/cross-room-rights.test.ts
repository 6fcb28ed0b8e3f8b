import { CROSS_ROOM_CODE, FLAG, type PushMessage, type ReplyMessage } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/context.js';
import { joinData } from '../support/clients.js';
import { sessionClient } from '../support/session-client.js';
import { publishMedia } from '../support/session-media.js';
import { closeEmbeddedContext, embeddedContext } from '../support/test-context.js';

/*
 * Issue 38.2: a cross-room link is a visit of the caller into the other room, authorised there as a join would be
 * (its privateMapKey rule, its bans, its capacity), made only by a caller whose uplink carries media, and refused
 * with one answer that tells nothing about the other room (docs/behaviour.md §7.6).
 */

const KEYED = { sdkAppId: 1400000381, secretKey: 'cross-room-rights-keyed-secret-0123', requirePrivateMapKey: true };
const OPEN = { sdkAppId: 1400000382, secretKey: 'cross-room-rights-open-secret-01234' };
const LIVE = { trtcScene: 2 };

type Client = ReturnType<typeof sessionClient>;

describe('38.2 cross-room links respect the rooms they enter', () => {
  let ctx: ServerContext;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(() => {
    ctx = embeddedContext({ apps: [KEYED, OPEN], limits: { anchorsPerLiveRoom: 2 } });
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    await closeEmbeddedContext(ctx);
  });

  const key = (app: typeof KEYED, userId: string, roomId: number, privilegeMap: number = PRIVILEGE.ALL) =>
    genPrivateMapKey({ sdkAppId: app.sdkAppId, secretKey: app.secretKey, userId, roomId, privilegeMap, expire: 3600 });

  /** A session joined to `roomId` as an anchor (or audience); `media`: it publishes real media, `flags`: only its flags say so. */
  async function user(app: typeof OPEN | typeof KEYED, userId: string, roomId: number, how: { media?: boolean; flags?: boolean; audience?: boolean } = {}): Promise<Client> {
    const c = sessionClient(ctx);
    const privateMapKey = 'requirePrivateMapKey' in app ? await key(app, userId, roomId) : undefined;
    const reply = await c.send('join', await joinData(app, userId, String(roomId), { ...LIVE, trtcRole: how.audience ? 21 : 20, ...(privateMapKey ? { privateMapKey } : {}) }));
    expect(reply.code, reply.message).toBe(0);
    if (how.media) stops.push(await publishMedia(c));
    else if (how.flags) expect((await c.send('mute-flag', { flag: FLAG.AUDIO | FLAG.VIDEO })).code).toBe(0);
    return c;
  }

  const start = (c: Client, data: object): Promise<ReplyMessage> => c.send('cross-room-start', data);
  const joinsOf = (c: Client) => c.pushes('peer-join').map((p: PushMessage) => (p.data as { userId: string }).userId);

  it('38.2 in an app that requires a privateMapKey, a link needs one valid for the other room; its bits rule what the other room receives', async () => {
    const caller = await user(KEYED, 'k1', 7000, { media: true });
    await user(KEYED, 't1', 5001);
    const viewer = await user(KEYED, 'w1', 5001, { audience: true });

    const refused = await start(caller, { roomId: 5001, userId: 't1' });
    expect(refused.code).toBe(CROSS_ROOM_CODE.FAILED);
    expect(joinsOf(viewer)).not.toContain('k1');
    // A key of the caller's own room is not one for the other room.
    expect((await start(caller, { roomId: 5001, userId: 't1', privateMapKey: await key(KEYED, 'k1', 7000) })).code).toBe(CROSS_ROOM_CODE.FAILED);
    // Nor is another user's key for it, nor a key without the enter-room bit.
    expect((await start(caller, { roomId: 5001, userId: 't1', privateMapKey: await key(KEYED, 't1', 5001) })).code).toBe(CROSS_ROOM_CODE.FAILED);
    expect((await start(caller, { roomId: 5001, userId: 't1', privateMapKey: await key(KEYED, 'k1', 5001, PRIVILEGE.SEND_VIDEO) })).code).toBe(CROSS_ROOM_CODE.FAILED);
    expect(joinsOf(viewer)).not.toContain('k1');

    // A key for room 5001 that lets the caller send video only: the room sees it with video, never its audio.
    const allowed = await start(caller, { roomId: 5001, userId: 't1', privateMapKey: await key(KEYED, 'k1', 5001, PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_VIDEO) });
    expect(allowed.code, allowed.message).toBe(0);
    expect(joinsOf(viewer)).toContain('k1');
    const seen = viewer.pushes('publish-list').map((p) => (p.data as { userList: { userId: string; flag: number }[] }).userList).flat().filter((u) => u.userId === 'k1');
    expect(seen.at(-1)?.flag).toBe(FLAG.VIDEO);
  });

  it('38.2 a user banned from a room cannot link into it from another room, nor bring a user banned from its own room', async () => {
    const banned = await user(OPEN, 'b1', 5102, { media: true });
    await user(OPEN, 't2', 5101);
    const viewer = await user(OPEN, 'w2', 5101, { audience: true });
    const now = Date.now();
    ctx.bans.ban({ sdkAppId: OPEN.sdkAppId, roomRef: '5101', userId: 'b1', until: now + 60_000, reason: '', createdAt: now });
    expect((await start(banned, { roomId: 5101, userId: 't2' })).code).toBe(CROSS_ROOM_CODE.FAILED);
    expect(joinsOf(viewer)).not.toContain('b1');

    // The other direction: the target anchor is banned from the caller's room.
    const caller = await user(OPEN, 'c3', 5103, { media: true });
    await user(OPEN, 't3', 5104);
    ctx.bans.ban({ sdkAppId: OPEN.sdkAppId, roomRef: '5103', userId: 't3', until: now + 60_000, reason: '', createdAt: now });
    expect((await start(caller, { roomId: 5104, userId: 't3' })).code).toBe(CROSS_ROOM_CODE.FAILED);
    expect(joinsOf(caller)).not.toContain('t3');
  });

  it('38.2 every refusal about the other room is one code and one message: no room, no such user, an audience, banned, full', async () => {
    const caller = await user(OPEN, 'c4', 5201, { media: true });
    await user(OPEN, 't4', 5202);
    await user(OPEN, 'hidden4', 5202, { audience: true });
    await user(OPEN, 'x4', 5202); // room 5202 now has its 2 anchors (anchorsPerLiveRoom): no visiting anchor fits
    await user(OPEN, 't5', 5203);
    const now = Date.now();
    ctx.bans.ban({ sdkAppId: OPEN.sdkAppId, roomRef: '5203', userId: 'c4', until: now + 60_000, reason: '', createdAt: now });
    const answers = await Promise.all([
      start(caller, { roomId: 5299, userId: 'nobody' }),
      start(caller, { roomId: 5203, userId: 'nobody' }),
      start(caller, { roomId: 5202, userId: 'hidden4' }),
      start(caller, { roomId: 5203, userId: 't5' }),
      start(caller, { roomId: 5202, userId: 't4' }),
    ].map(async (answer) => { const { code, message } = await answer; return { code, message }; }));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.code).toBe(CROSS_ROOM_CODE.FAILED);
    expect(answers[0]?.message).not.toMatch(/5299|5203|5202|nobody|hidden4|t4|t5|audience|banned|full/);
  });

  it('38.2 a caller whose flags say it publishes but whose uplink carries no media is refused', async () => {
    const caller = await user(OPEN, 'c6', 5301, { flags: true });
    await user(OPEN, 't6', 5302);
    const viewer = await user(OPEN, 'w6', 5302, { audience: true });
    const reply = await start(caller, { roomId: 5302, userId: 't6' });
    expect(reply.code).toBe(CROSS_ROOM_CODE.FAILED);
    expect(joinsOf(viewer)).not.toContain('c6');
  });
});
