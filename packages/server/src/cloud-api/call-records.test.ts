import { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server.js';
import { joined, startTestServer, type WsClient } from '../test-support/clients.js';

const KEY = { secretId: 'AKIDconclaveCallRecords001', secretKey: 'call-records-secret-key-0123456789' };
const APP = { sdkAppId: 1400300011, secretKey: 'call-records-app-user-sig-key-0123', cloudApiKeys: [KEY] };

describe('cloud API call records (DescribeRoomInfo, DescribeUserInfo, DescribeCallDetailInfo) from the store', () => {
  let server: RunningServer;
  let trtc: TrtcClient;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ apps: [APP], limits: { cloudApiRequestsPerSecond: 1000 } });
    trtc = new TrtcClient({ credential: KEY, region: 'ap-guangzhou', profile: { httpProfile: { endpoint: server.url.replace(/^http:\/\//, ''), protocol: 'http://' } } });
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
