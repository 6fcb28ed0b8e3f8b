import { FLAG, ROLE_CODE } from '@conclave/protocol';
import type { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';
import { officialTrtcClient } from '../../../../tests/kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { joined, startTestServer, type WsClient } from '../support/clients.js';

const KEY = { secretId: 'AKIDconclaveCallRecords001', secretKey: 'call-records-secret-key-0123456789' };
const APP = { sdkAppId: 1400300011, secretKey: 'call-records-app-user-sig-key-0123', cloudApiKeys: [KEY] };

describe('cloud API call records (DescribeRoomInfo, DescribeUserInfo, DescribeCallDetailInfo, DescribeUserEvent) from the store', () => {
  let server: RunningServer;
  let trtc: TrtcClient;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ apps: [APP], limits: { cloudApiRequestsPerSecond: 1000 } });
    trtc = officialTrtcClient(server.url, KEY);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('lists room sessions and the visits of their users, as the official client reads them', async () => {
    const start = Math.floor(Date.now() / 1000) - 5;
    const alice = await joined(server, APP, 'alice', '9001');
    clients.push(alice, await joined(server, APP, 'bob', '9001'), await joined(server, APP, 'carol', 'lobby', { useStringRoomId: true }));
    expect((await alice.request('leave', {})).code).toBe(0);
    const end = Math.floor(Date.now() / 1000) + 5;

    const rooms = await trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId, StartTime: start, EndTime: end });
    expect(rooms.Total).toBe(2);
    const numeric = rooms.RoomList?.find((r) => r.RoomString === '9001');
    expect(numeric).toMatchObject({ IsFinished: false, DestroyTime: 0, UserId: 'alice' });
    expect(numeric?.CommId).toBe(`${APP.sdkAppId}_9001_${numeric?.CreateTime}`);
    expect(rooms.RoomList?.find((r) => r.RoomString === 'lobby')).toMatchObject({ UserId: 'carol', IsFinished: false });
    const one = await trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId, StartTime: start, EndTime: end, RoomId: '9001' });
    expect(one.RoomList?.map((r) => r.RoomString)).toEqual(['9001']);

    const users = await trtc.DescribeUserInfo({ SdkAppId: APP.sdkAppId, CommId: numeric?.CommId ?? '', StartTime: start, EndTime: end });
    expect(users.Total).toBe(2);
    const byUser = new Map(users.UserList?.map((u) => [u.UserId, u]));
    expect(byUser.get('alice')).toMatchObject({ RoomStr: '9001', Finished: true, SdkVersion: '5.10.1', ClientIp: expect.stringMatching(/127\.0\.0\.1/) as unknown });
    expect(byUser.get('bob')).toMatchObject({ Finished: false });
    expect(byUser.get('alice')?.LeaveTs).toBeGreaterThanOrEqual(byUser.get('alice')?.JoinTs ?? Infinity);
    const onlyBob = await trtc.DescribeUserInfo({ SdkAppId: APP.sdkAppId, CommId: numeric?.CommId ?? '', StartTime: start, EndTime: end, UserIds: ['bob'] });
    expect(onlyBob.UserList?.map((u) => u.UserId)).toEqual(['bob']);
    // Paging: one per page.
    const second = await trtc.DescribeUserInfo({ SdkAppId: APP.sdkAppId, CommId: numeric?.CommId ?? '', StartTime: start, EndTime: end, PageNumber: 1, PageSize: 1 });
    expect(second).toMatchObject({ Total: 2 });
    expect(second.UserList).toHaveLength(1);
    // DescribeCallDetailInfo without DataType: the same user list (its range at most an hour).
    const detail = await trtc.DescribeCallDetailInfo({ SdkAppId: APP.sdkAppId, CommId: numeric?.CommId ?? '', StartTime: start, EndTime: end, UserIds: ['alice'] });
    expect(detail).toMatchObject({ Total: 1, UserList: [{ UserId: 'alice', RoomStr: '9001', Finished: true }] });
  });

  it("DescribeUserEvent answers a user's enter, media started / muted / unmuted / stopped, role change and exit, with the vendor's event ids", async () => {
    const start = Math.floor(Date.now() / 1000) - 5;
    const dave = await joined(server, APP, 'dave', '9002', { trtcScene: 2 });
    clients.push(dave, await joined(server, APP, 'erin', '9002', { trtcScene: 2 }));
    const flag = async (value: number) => expect((await dave.request('mute-flag', { flag: value })).code).toBe(0);
    await flag(FLAG.VIDEO | FLAG.AUDIO);
    await flag(FLAG.VIDEO | FLAG.AUDIO | FLAG.AUDIO_MUTE | FLAG.VIDEO_MUTE);
    await flag(FLAG.VIDEO | FLAG.AUDIO | FLAG.AUX);
    await flag(FLAG.AUDIO);
    expect((await dave.request('switch-role', { role: ROLE_CODE.audience })).code).toBe(0);
    const rooms = await trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId, StartTime: start, EndTime: start + 60, RoomId: '9002' });
    const commId = rooms.RoomList?.[0]?.CommId ?? '';
    await trtc.RemoveUser({ SdkAppId: APP.sdkAppId, RoomId: 9002, UserIds: ['dave'] });
    const ask = { SdkAppId: APP.sdkAppId, CommId: commId, RoomId: '9002', StartTime: start, EndTime: start + 60 };
    const answer = await trtc.DescribeUserEvent({ ...ask, UserId: 'dave' });
    expect(answer.Data?.map((d) => d.PeerId)).toEqual(['dave']);
    const content = answer.Data?.[0]?.Content ?? [];
    expect(content.map((e) => `${e.EventId}:${e.ParamOne}:${e.Type}`)).toEqual([
      '103:20:0', // entered as an anchor
      '4006:2:2', '3001:0:0', // camera and microphone started
      '4006:1:2', '3001:1:0', // both muted
      '4006:0:2', '3001:3:0', '205:0:0', // unmuted, and a screen share started
      '4006:3:2', '206:0:0', // camera and screen share stopped
      '105:21:0', '3001:2:0', // switched to audience: its microphone stops
      '104:3:0', // removed from the room
    ]);
    expect(content.every((e) => e.ParamTwo === -1 && (e.Time ?? 0) >= start * 1000)).toBe(true);
    // Ordered in time; another user's, and a range before the call, are empty.
    expect(content.map((e) => e.Time)).toEqual([...content.map((e) => e.Time ?? 0)].sort((a, b) => a - b));
    expect((await trtc.DescribeUserEvent({ ...ask, UserId: 'erin' })).Data?.[0]?.Content?.map((e) => e.EventId)).toEqual([103]);
    expect((await trtc.DescribeUserEvent({ ...ask, UserId: 'dave', StartTime: start - 600, EndTime: start - 300 })).Data).toEqual([]);

    const code = async (extra: Record<string, unknown>) => trtc.request('DescribeUserEvent', { ...ask, UserId: 'dave', ...extra }).then(() => '', (error: unknown) => String((error as { code?: string }).code));
    expect(await code({ EndTime: start - 1 })).toBe('InvalidParameter.EndTs');
    expect(await code({ StartTime: start - 15 * 86400 })).toBe('InvalidParameter.StartTsOversize');
    expect(await code({ StartTime: 'yesterday' })).toBe('InvalidParameter.StartTs');
    expect(await code({ EndTime: undefined })).toBe('MissingParameter.EndTs');
    expect(await code({ UserId: undefined })).toBe('MissingParameter.UserId');
    expect(await code({ CommId: undefined })).toBe('MissingParameter.CommId');
    expect(await code({ RoomId: undefined })).toBe('MissingParameter.RoomId');
    expect(await code({ RoomId: '9001' })).toBe('InvalidParameter');
    expect(await code({ SdkAppId: APP.sdkAppId + 1 })).toBe('AuthFailure.UnauthorizedOperation');
  });

  it("refuses a range over the API's limits or past the retention, with its codes", async () => {
    const now = Math.floor(Date.now() / 1000);
    const code = async (call: Promise<unknown>) => call.then(() => '', (error: unknown) => String((error as { code?: string }).code));
    expect(await code(trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId, StartTime: now - 25 * 3600, EndTime: now }))).toBe('InvalidParameter.QueryScaleOversize');
    expect(await code(trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId, StartTime: now - 15 * 86400, EndTime: now - 15 * 86400 + 60 }))).toBe('InvalidParameter.StartTsOversize');
    expect(await code(trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId, StartTime: now, EndTime: now - 1 }))).toBe('InvalidParameter.EndTime');
    expect(await code(trtc.DescribeUserInfo({ SdkAppId: APP.sdkAppId, CommId: 'x', StartTime: now - 5 * 3600, EndTime: now }))).toBe('InvalidParameter.QueryScaleOversize');
    expect(await code(trtc.DescribeCallDetailInfo({ SdkAppId: APP.sdkAppId, CommId: 'x', StartTime: now - 2 * 3600, EndTime: now }))).toBe('InvalidParameter.QueryScaleOversize');
    expect(await code(trtc.DescribeCallDetailInfo({ SdkAppId: APP.sdkAppId, CommId: 'x', StartTime: now - 60, EndTime: now, DataType: ['rtt'] }))).toBe('InvalidParameter.DataType');
    expect(await code(trtc.DescribeRoomInfo({ SdkAppId: APP.sdkAppId + 1, StartTime: now - 60, EndTime: now }))).toBe('AuthFailure.UnauthorizedOperation');
  });
});
