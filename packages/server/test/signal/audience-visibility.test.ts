import { FLAG, LIMITS, SERVER_CODE, type PeerInfo, type PushMessage } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { CallbackReceiver } from '../../../../tests/kit/callback-receiver.js';
import { httpJson, joined, joinData, startTestServer, WsClient } from '../support/clients.js';
import { waitFor } from '../support/engine-peers.js';

/**
 * docs/behaviour.md §3.5: the audience of a live room is hidden from the other users, as in the original's rooms.
 * Real server, bare WebSocket clients.
 */
const KEY = 'audienceCallbackKey0123456';
const ADMIN = 'audience-admin-key-0123456789';
const app = (callbackUrl: string) => ({ sdkAppId: 1400300031, secretKey: 'audience-visibility-secret-0123', adminKey: ADMIN, callback: { url: callbackUrl, key: KEY } });
const LIVE = { trtcScene: 2 };
const AUDIENCE = { trtcScene: 2, trtcRole: 21 };

const userIds = (pushes: PushMessage[]) => pushes.map((p) => (p.data as { userId: string }).userId);

describe('live rooms hide their audience', () => {
  let server: RunningServer;
  let receiver: CallbackReceiver;
  const clients: WsClient[] = [];
  const join = async (userId: string, roomId: string, extra: Record<string, unknown>) => {
    const client = await joined(server, app(''), userId, roomId, extra);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    receiver = await CallbackReceiver.start(KEY);
    server = await startTestServer({ apps: [app(receiver.url)] });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
    await receiver.down();
  });

  it('audiences hidden: no peer-join or peer-leave for an audience, absent from a late joiner\'s list; it still receives the anchors\' pushes; callbacks and the admin API still see it', async () => {
    const anchor = await join('anchor', '3100', LIVE);
    expect((await anchor.request('mute-flag', { flag: FLAG.AUDIO })).code).toBe(0);
    const viewer = await WsClient.connect(server);
    clients.push(viewer);
    const reply = await viewer.request('join', await joinData(app(''), 'viewer', '3100', AUDIENCE));
    // The audience sees the anchor with its flags.
    expect((reply.data as { userList: PeerInfo[] }).userList).toEqual([expect.objectContaining({ userId: 'anchor', flag: FLAG.AUDIO })]);
    // The anchor is told the audience count, and nothing else about the viewer (pushes arrive in order).
    await anchor.waitForPush('audience-count', (p) => (p.data as { count: number }).count === 1);
    expect(anchor.pushes('peer-join')).toEqual([]);
    // A late anchor's list has the anchor only; the viewer sees it enter and its flags change.
    const late = await WsClient.connect(server);
    clients.push(late);
    const lateReply = await late.request('join', await joinData(app(''), 'late', '3100', LIVE));
    expect((lateReply.data as { userList: PeerInfo[]; audienceCount: number })).toMatchObject({ userList: [expect.objectContaining({ userId: 'anchor' })], audienceCount: 1 });
    await viewer.waitForPush('peer-join', (p) => (p.data as PeerInfo).userId === 'late');
    expect((await late.request('mute-flag', { flag: FLAG.VIDEO })).code).toBe(0);
    await viewer.waitForPush('publish-list', (p) => (p.data as { userList: PeerInfo[] }).userList[0]?.userId === 'late');
    // Subscribing to a hidden audience is refused as to a user who is not there.
    expect((await anchor.request('subscribe', { srcUserId: 'viewer', audio: true, bigVideo: false, smallVideo: false, auxVideo: false })).code).toBe(SERVER_CODE.STREAM_NOT_EXIST);
    // The admin API and the callbacks count the audience.
    const rooms = await httpJson(`${server.url}/admin/v1/apps/${app('').sdkAppId}/rooms`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect((rooms.body as { rooms: unknown[] }).rooms).toEqual([expect.objectContaining({ roomKey: '3100', users: 3, anchors: 2, audience: 1 })]);
    // Its leave is told to nobody: the next thing the anchor hears is the late anchor's leave.
    expect((await viewer.request('leave', {})).code).toBe(0);
    expect((await late.request('leave', {})).code).toBe(0);
    await anchor.waitForPush('peer-leave', (p) => (p.data as PeerInfo).userId === 'late');
    expect(userIds(anchor.pushes('peer-leave'))).toEqual(['late']);
    expect(userIds(anchor.pushes('peer-join'))).toEqual(['late']);
    await waitFor(() => receiver.trace().includes('104:viewer'), 10_000, 'the viewer\'s exit callback');
    expect(receiver.trace().filter((t) => t.endsWith(':viewer'))).toEqual(['103:viewer', '104:viewer']);
  });

  it("an anchor switching to audience: the others see it leave with reason 'role change' and cannot subscribe to it; switching back: enter again", async () => {
    const watcher = await join('watcher', '3200', LIVE);
    const star = await join('star', '3200', LIVE);
    expect((await star.request('mute-flag', { flag: FLAG.AUDIO })).code).toBe(0);
    await watcher.waitForPush('publish-list');
    expect((await star.request('switch-role', { role: 21 })).code).toBe(0);
    const left = await watcher.waitForPush('peer-leave', (p) => (p.data as PeerInfo).userId === 'star');
    expect(left.data).toMatchObject({ userId: 'star', reason: 'role change' });
    await watcher.waitForPush('audience-count', (p) => (p.data as { count: number }).count === 1);
    // Its flag clearing goes to nobody: the watcher heard one publish-list (the audio), before the leave.
    expect(watcher.pushes('publish-list')).toHaveLength(1);
    // A hidden audience is no source.
    expect((await watcher.request('subscribe', { srcUserId: 'star', audio: true, bigVideo: false, smallVideo: false, auxVideo: false })).code).toBe(SERVER_CODE.STREAM_NOT_EXIST);
    expect((await star.request('switch-role', { role: 20 })).code).toBe(0);
    const back = await watcher.waitForPush('peer-join', (p) => (p.data as PeerInfo).userId === 'star');
    expect(back.data).toMatchObject({ userId: 'star', flag: 0 });
    expect(userIds(watcher.pushes('peer-join'))).toEqual(['star', 'star']);
    await waitFor(() => receiver.trace().filter((t) => t === '105:star').length === 2, 10_000, 'two role-change callbacks');
  });

  it('the audience count: in the join reply, pushed to everyone on a change at most once a second, with the count at the end', async () => {
    const host = await join('host', '3300', LIVE);
    const started = Date.now();
    const viewers: WsClient[] = [];
    for (const id of ['v1', 'v2', 'v3']) viewers.push(await join(id, '3300', AUDIENCE));
    // The first change goes at once, the next two are merged into one push at the end of the interval.
    const last = await host.waitForPush('audience-count', (p) => (p.data as { count: number }).count === 3, 5_000);
    expect(host.pushes('audience-count').map((p) => (p.data as { count: number }).count)).toEqual([1, 3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS.AUDIENCE_COUNT_INTERVAL_MS - 50);
    // The audience is told too.
    expect(await viewers[0]!.waitForPush('audience-count', (p) => (p.data as { count: number }).count === 3)).toEqual(last);
    // The rtc scene has no audience: a join there says 0 and hears no count.
    const rtc = await WsClient.connect(server);
    clients.push(rtc);
    expect((await rtc.request('join', await joinData(app(''), 'solo', '3301'))).data).toMatchObject({ audienceCount: 0 });
    // A viewer leaving right after a push: told at the end of that interval.
    expect((await viewers[0]!.request('leave', {})).code).toBe(0);
    await host.waitForPush('audience-count', (p) => (p.data as { count: number }).count === 2, 5_000);
    expect(rtc.pushes('audience-count')).toEqual([]);
  });
});
