import { officialTrtcClient } from '../../../../tests/kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joined, startTestServer, type WsClient } from '../support/clients.js';
import { cloudApiHeaders, sdkSigner, type CloudKey } from '../support/cloud-api-signer.js';

/*
 * Issue 38 item 6: the official Node SDK signs only `content-type;host`, so X-TC-Action is not covered by the
 * signature. A signature is spent for every address but the one that used it first (which may send the same body
 * with another action in the same second, as the SDK signs it alike), a write is not accepted twice, and an app
 * may require X-TC-Action in SignedHeaders. The server is behind a proxy here (the test client), so a request
 * can come from the backend (no X-Forwarded-For: 127.0.0.1) or from an attacker's address.
 */

const ATTACKER = { 'X-Forwarded-For': '198.51.100.66' };

const KEY = { secretId: 'AKIDreplayTestKeyOne0001', secretKey: 'replay-test-cloud-secret-0123456789' };
const STRICT_KEY = { secretId: 'AKIDreplayStrictKey0002', secretKey: 'replay-strict-cloud-secret-01234567' };
const APP = { sdkAppId: 1400380601, secretKey: 'replay-test-user-sig-key-0123456789', cloudApiKeys: [KEY] };
const STRICT = { sdkAppId: 1400380602, secretKey: 'replay-strict-user-sig-key-0123456', cloudApiKeys: [STRICT_KEY], cloudApiRequireSignedAction: true };

type Answer = { Error?: { Code: string; Message: string }; Status?: string; TaskId?: string };

describe('38.6 replay and unsigned actions on the server API', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  const trtc = (key: CloudKey) => officialTrtcClient(server.url, key);
  /** A request as the official client signs it (content-type;host), captured: its headers and body, to send again. */
  const captured = (key: CloudKey, payload: Record<string, unknown>, timestamp = Math.floor(Date.now() / 1000)) => {
    const headers = { 'Content-Type': 'application/json' };
    const authorization = sdkSigner.sign3({ method: 'POST', url: `${server.url}/`, payload, timestamp, service: 'trtc', ...key, headers });
    return { headers: { ...headers, Authorization: authorization, 'X-TC-Version': '2019-07-22', 'X-TC-Timestamp': String(timestamp) }, body: JSON.stringify(payload) };
  };
  const send = async (request: { headers: Record<string, string>; body: string }, action: string, from: Record<string, string> = {}) =>
    (await httpJson(`${server.url}/`, { method: 'POST', headers: { ...request.headers, ...from, 'X-TC-Action': action }, body: request.body })).body.Response as Answer;

  beforeAll(async () => {
    server = await startTestServer({ apps: [APP, STRICT], trustProxy: true, limits: { cloudApiRequestsPerSecond: 1000 } });
    clients.push(await joined(server, APP, 'alice', '3801'));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('38.6 a captured DescribeCloudRecording sent again as DeleteCloudRecording is refused (AuthFailure.SignatureExpire) and deletes nothing', async () => {
    const { TaskId: taskId = '' } = await trtc(KEY).CreateCloudRecording({ SdkAppId: APP.sdkAppId, RoomId: '3801', UserId: 'robot', UserSig: 'sig', RecordParams: { RecordMode: 2 }, StorageParams: {} });
    const describe = captured(KEY, { SdkAppId: APP.sdkAppId, TaskId: taskId });
    expect((await send(describe, 'DescribeCloudRecording')).Status).toBe('Idle');

    const replayed = await send(describe, 'DeleteCloudRecording', ATTACKER);
    expect(replayed.Error?.Code).toBe('AuthFailure.SignatureExpire');
    expect(replayed.Error?.Message).toMatch(/already used/);
    expect((await send(describe, 'DescribeCloudRecording', ATTACKER)).Error?.Code).toBe('AuthFailure.SignatureExpire');
    expect((await trtc(KEY).DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status).toBe('Idle');
    // The backend polling within one second signs alike: the same read is answered again.
    expect((await send(describe, 'DescribeCloudRecording')).Status).toBe('Idle');
    // Its Delete right after, with the same body in the same second, is signed alike too: taken from its address.
    expect((await send(describe, 'DeleteCloudRecording')).TaskId).toBe(taskId);
    expect((await trtc(KEY).DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status).toBe('Exited');
  });

  it('38.6 a signature that acted is refused from any other address, with any action, and the same write is not taken twice', async () => {
    const dismiss = captured(KEY, { SdkAppId: APP.sdkAppId, RoomId: 3899 });
    expect((await send(dismiss, 'DismissRoom')).Error?.Code).toBe('FailedOperation.RoomNotExist');
    for (const action of ['DismissRoom', 'DescribeRoomInfo', 'RemoveUser']) expect((await send(dismiss, action, ATTACKER)).Error?.Code, action).toBe('AuthFailure.SignatureExpire');
    expect((await send(dismiss, 'DismissRoom')).Error?.Code).toBe('AuthFailure.SignatureExpire');
    // An attacker that gets in first spends the signature for the backend: strict mode (next test) closes that.
    const remove = captured(KEY, { SdkAppId: APP.sdkAppId, RoomId: 3899, UserIds: ['alice'] });
    expect((await send(remove, 'RemoveUser', ATTACKER)).Error?.Code).toBe('FailedOperation.RoomNotExist');
    expect((await send(remove, 'RemoveUser')).Error?.Code).toBe('AuthFailure.SignatureExpire');
  });

  it('38.6 strict mode: an app with cloudApiRequireSignedAction refuses requests whose SignedHeaders lack x-tc-action (AuthFailure.InvalidAuthorization)', async () => {
    const dismiss = { SdkAppId: STRICT.sdkAppId, RoomId: 3898 };
    await expect(trtc(STRICT_KEY).DismissRoom(dismiss)).rejects.toMatchObject({ code: 'AuthFailure.InvalidAuthorization' });
    const body = JSON.stringify(dismiss);
    const unsignedAction = await httpJson(`${server.url}/`, { method: 'POST', headers: cloudApiHeaders(STRICT_KEY, 'DismissRoom', body), body });
    expect((unsignedAction.body.Response as Answer).Error?.Code).toBe('AuthFailure.InvalidAuthorization');
    const signedAction = await httpJson(`${server.url}/`, { method: 'POST', headers: cloudApiHeaders(STRICT_KEY, 'DismissRoom', body, { signAction: true }), body });
    expect((signedAction.body.Response as Answer).Error?.Code).toBe('FailedOperation.RoomNotExist');
    // The default mode still takes the official SDK's requests.
    await expect(trtc(KEY).DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 3897 })).rejects.toMatchObject({ code: 'FailedOperation.RoomNotExist' });
  });
});
