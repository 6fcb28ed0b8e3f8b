import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joined, startTestServer, type WsClient } from '../support/clients.js';
import { sdkSigner } from '../support/cloud-api-signer.js';
import { officialTrtcClient, trtcRefusalCode } from '../../../../tests/kit/official-trtc-client.js';

const KEY = { secretId: 'AKIDconclaveTestKeyOne0001', secretKey: 'cloud-api-secret-key-one-0123456789' };
const ROTATED = { secretId: 'AKIDconclaveTestKeyTwo0002', secretKey: 'cloud-api-secret-key-two-0123456789' };
const OTHER = { secretId: 'AKIDconclaveOtherApp000003', secretKey: 'cloud-api-secret-key-other-01234567' };
const APP = { sdkAppId: 1400300001, secretKey: 'cloud-api-app-user-sig-key-0123456', adminKey: 'cloud-api-admin-key-0123456789', cloudApiKeys: [KEY, ROTATED] };
const OTHER_APP = { sdkAppId: 1400300002, secretKey: 'cloud-api-other-user-sig-key-01234', cloudApiKeys: [OTHER] };

/** A request signed by the SDK's signer at `timestamp`, sent as its client sends one. */
async function signedAt(server: RunningServer, key: { secretId: string; secretKey: string }, action: string, payload: Record<string, unknown>, timestamp: number) {
  const headers = { 'Content-Type': 'application/json' };
  const authorization = sdkSigner.sign3({ method: 'POST', url: `${server.url}/`, payload, timestamp, service: '127', secretId: key.secretId, secretKey: key.secretKey, headers });
  const res = await httpJson(`${server.url}/`, {
    method: 'POST',
    headers: { ...headers, Authorization: authorization, 'X-TC-Action': action, 'X-TC-Version': '2019-07-22', 'X-TC-Timestamp': String(timestamp), 'X-TC-Region': 'ap-guangzhou' },
    body: JSON.stringify(payload),
  });
  return res.body.Response as { Error?: { Code: string; Message: string }; RequestId: string };
}

describe('cloud API (TencentCloud API 3.0, trtc 2019-07-22)', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  const track = (c: WsClient) => { clients.push(c); return c; };
  const admin = (path: string) => httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/${path}`, { headers: { authorization: `Bearer ${APP.adminKey}` } });
  const usersOf = async (roomKey: string) => {
    const res = await admin(`rooms/${encodeURIComponent(roomKey)}/users`);
    return res.status === 404 ? [] : (res.body.users as { userId: string }[]).map((u) => u.userId).sort();
  };

  beforeAll(async () => {
    // More requests per second than these tests send in a burst (the limit has its own test below).
    server = await startTestServer({ apps: [APP, OTHER_APP], limits: { cloudApiRequestsPerSecond: 1000 } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it("a bad signature, an unknown SecretId and a stale timestamp are refused with the API's codes and change nothing", async () => {
    const alice = track(await joined(server, APP, 'alice', '501'));
    track(await joined(server, APP, 'bob', '501'));
    const remove = { SdkAppId: APP.sdkAppId, RoomId: 501, UserIds: ['alice'] };
    const now = Math.floor(Date.now() / 1000);

    expect(await trtcRefusalCode(officialTrtcClient(server.url, { secretId: KEY.secretId, secretKey: 'not-the-secret-key-0123456789' }).RemoveUser(remove))).toBe('AuthFailure.SignatureFailure');
    expect(await trtcRefusalCode(officialTrtcClient(server.url, { secretId: 'AKIDnobodyHasThisId00000', secretKey: KEY.secretKey }).RemoveUser(remove))).toBe('AuthFailure.SecretIdNotFound');
    const stale = await signedAt(server, KEY, 'RemoveUser', remove, now - 600);
    expect(stale.Error?.Code).toBe('AuthFailure.SignatureExpire');
    expect(stale.RequestId).toMatch(/^[0-9a-f-]{36}$/);
    // A body changed after signing is a bad signature too.
    const tampered = await httpJson(`${server.url}/`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json', 'X-TC-Action': 'RemoveUser', 'X-TC-Version': '2019-07-22', 'X-TC-Timestamp': String(now),
        Authorization: sdkSigner.sign3({ method: 'POST', url: `${server.url}/`, payload: { ...remove, UserIds: ['nobody'] }, timestamp: now, service: '127', ...KEY, headers: { 'Content-Type': 'application/json' } }),
      },
      body: JSON.stringify(remove),
    });
    expect((tampered.body.Response as { Error: { Code: string } }).Error.Code).toBe('AuthFailure.SignatureFailure');

    // Nothing changed: both are still in the room, alice was told nothing.
    expect(await usersOf('501')).toEqual(['alice', 'bob']);
    expect(alice.pushes('banned')).toEqual([]);
    expect(alice.open).toBe(true);
    // The same request signed now (the SDK's signer, same key) goes through: only the timestamp was wrong.
    expect((await signedAt(server, KEY, 'RemoveUser', remove, now)).Error).toBeUndefined();
    expect(await alice.closed()).toBeGreaterThan(0);
    expect(await usersOf('501')).toEqual(['bob']);
  });

  it('RemoveUser removes the named users only (kick), with either of two key pairs; DismissRoomByStrRoomId empties the room; both are audited', async () => {
    const carol = track(await joined(server, APP, 'carol', '502'));
    const dave = track(await joined(server, APP, 'dave', '502'));
    const erin = track(await joined(server, APP, 'erin', '502'));
    const answer = await officialTrtcClient(server.url, ROTATED).RemoveUser({ SdkAppId: APP.sdkAppId, RoomId: 502, UserIds: ['carol', 'not-here'] });
    expect(answer).toEqual({ RequestId: expect.stringMatching(/^[0-9a-f-]{36}$/) as string });
    const banned = await carol.waitForPush('banned');
    expect(banned.data).toMatchObject({ reason: 'kick' });
    expect(await usersOf('502')).toEqual(['dave', 'erin']);
    expect(dave.pushes('banned')).toEqual([]);
    expect(erin.pushes('banned')).toEqual([]);

    const f = track(await joined(server, APP, 'frank', 'lobby', { useStringRoomId: true }));
    const g = track(await joined(server, APP, 'grace', 'lobby', { useStringRoomId: true }));
    await officialTrtcClient(server.url, KEY).DismissRoomByStrRoomId({ SdkAppId: APP.sdkAppId, RoomId: 'lobby' });
    for (const c of [f, g]) expect((await c.waitForPush('banned')).data).toMatchObject({ reason: 'room_disband' });
    expect(await usersOf('s:lobby')).toEqual([]);
    expect(await usersOf('502')).toEqual(['dave', 'erin']);

    const logs = (await admin('logs?cmdType=server_event')).body.logs as { roomKey: string; userId: string; log: string }[];
    expect(logs.map((l) => [l.roomKey, l.userId, l.log.replace(/ \(SecretId.*$/, '')])).toEqual(expect.arrayContaining([
      ['502', 'carol', 'cloud-api RemoveUser: removed'],
      ['s:lobby', '', 'cloud-api DismissRoomByStrRoomId: room dismissed (2 users)'],
    ]));
    expect(logs.find((l) => l.userId === 'carol')?.log).toContain(`SecretId ${ROTATED.secretId}`);
    expect(JSON.stringify(logs)).not.toContain(ROTATED.secretKey);
  });

  it("answers bad requests with the API's codes: missing and invalid parameters, absent rooms, users and tasks, bad CDN URLs, another app, unknown actions", async () => {
    track(await joined(server, APP, 'heidi', '503'));
    const trtc = officialTrtcClient(server.url, KEY);
    expect(await trtcRefusalCode(trtc.DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 999 }))).toBe('FailedOperation.RoomNotExist');
    expect(await trtcRefusalCode(trtc.RemoveUser({ SdkAppId: APP.sdkAppId, RoomId: 503, UserIds: ['nobody'] }))).toBe('FailedOperation.UserNotExist');
    expect(await trtcRefusalCode(trtc.RemoveUser({ SdkAppId: APP.sdkAppId, RoomId: 503, UserIds: [] }))).toBe('InvalidParameter.UserIds');
    expect(await trtcRefusalCode(trtc.RemoveUser({ SdkAppId: APP.sdkAppId, RoomId: 503, UserIds: Array.from({ length: 11 }, (_, i) => `u${i}`) }))).toBe('InvalidParameter.UserIdsMorethanTen');
    expect(await trtcRefusalCode(trtc.request('DismissRoom', { SdkAppId: APP.sdkAppId }))).toBe('MissingParameter.RoomId');
    expect(await trtcRefusalCode(trtc.request('DismissRoom', { SdkAppId: APP.sdkAppId, RoomId: '503' }))).toBe('InvalidParameter.RoomId');
    expect(await trtcRefusalCode(trtc.DismissRoom({ SdkAppId: OTHER_APP.sdkAppId, RoomId: 503 }))).toBe('AuthFailure.UnauthorizedOperation');
    expect(await trtcRefusalCode(officialTrtcClient(server.url, OTHER).DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 503 }))).toBe('AuthFailure.UnauthorizedOperation');
    expect(await trtcRefusalCode(trtc.DescribeTrtcUsage({ StartTime: '2026-01-01', EndTime: '2026-01-02' }))).toBe('UnsupportedOperation');
    expect(await trtcRefusalCode(trtc.request('MakeCoffee', {}))).toBe('InvalidAction');
    const recording = { SdkAppId: APP.sdkAppId, RoomId: '503', UserId: 'robot', UserSig: 'sig', RecordParams: { RecordMode: 2 }, StorageParams: {} };
    expect(await trtcRefusalCode(trtc.CreateCloudRecording({ ...recording, RoomId: '999' }))).toBe('FailedOperation.RoomNotExist');
    expect(await trtcRefusalCode(trtc.CreateCloudRecording({ ...recording, RoomId: 'lobby' }))).toBe('InvalidParameter.RoomId');
    expect(await trtcRefusalCode(trtc.request('CreateCloudRecording', { ...recording, RecordParams: undefined }))).toBe('MissingParameter.RecordParams');
    expect(await trtcRefusalCode(trtc.CreateCloudRecording({ ...recording, RecordParams: { RecordMode: 3 } }))).toBe('InvalidParameter.RecordMode');
    expect(await trtcRefusalCode(trtc.DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: 'no-such-task' }))).toBe('InvalidParameter.TaskId');
    expect(await trtcRefusalCode(trtc.DeleteCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: 'no-such-task' }))).toBe('InvalidParameter.TaskId');
    const cdn = { SdkAppId: APP.sdkAppId, RoomId: '503', RoomIdType: 0, AgentParams: { UserId: 'robot' }, WithTranscoding: 0, PublishCdnParams: [{ PublishCdnUrl: 'rtmp://127.0.0.1:1/live/x' }] };
    const single = { UserMediaStream: { UserInfo: { UserId: 'nobody' } } };
    expect(await trtcRefusalCode(trtc.request('StartPublishCdnStream', { ...cdn, RoomIdType: undefined }))).toBe('MissingParameter.RoomIdType');
    expect(await trtcRefusalCode(trtc.StartPublishCdnStream({ ...cdn, SingleSubscribeParams: single, PublishCdnParams: [{ PublishCdnUrl: 'http://x/y' }] }))).toBe('InvalidParameter.PublishCdnUrl');
    expect(await trtcRefusalCode(trtc.StartPublishCdnStream({ ...cdn, SingleSubscribeParams: single }))).toBe('FailedOperation.UserNotExist');
    expect(await trtcRefusalCode(trtc.StartPublishCdnStream(cdn))).toBe('MissingParameter.SingleSubscribeParams');
    expect(await trtcRefusalCode(trtc.StopPublishCdnStream({ SdkAppId: APP.sdkAppId, TaskId: 'no-such-task' }))).toBe('InvalidParameter.TaskId');
    expect(await usersOf('503')).toEqual(['heidi']);
  });

  it('limits requests per SecretId (RequestLimitExceeded), each key on its own', async () => {
    const limited = await startTestServer({ apps: [APP], limits: { cloudApiRequestsPerSecond: 3 } });
    try {
      // A room each: identical requests in one second would carry one signature (a replay, refused as such).
      const codes = await Promise.all(Array.from({ length: 8 }, (_, i) => trtcRefusalCode(officialTrtcClient(limited.url, KEY).DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 1 + i }))));
      expect(codes.filter((c) => c === 'RequestLimitExceeded').length).toBeGreaterThanOrEqual(4);
      expect(codes.filter((c) => c === 'FailedOperation.RoomNotExist').length).toBeGreaterThanOrEqual(3);
      expect(await trtcRefusalCode(officialTrtcClient(limited.url, ROTATED).DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 1 }))).toBe('FailedOperation.RoomNotExist');
    } finally {
      await limited.close();
    }
  });
});
