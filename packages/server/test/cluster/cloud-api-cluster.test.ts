import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HTTP_CODE, SCHEDULE_PATH } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { Redis } from 'ioredis';
import { officialTrtcClient } from '../../../../tests/kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joined, startTestServer, type WsClient } from '../support/clients.js';
import { TestRedis } from '../../../../tests/kit/redis-server.js';
import { KEYS } from '../../src/cluster/keys.js';
import { LOCAL_HEADER } from '../../src/cluster/admin-forward.js';
import { nodeSignature } from '../../src/cluster/node-signature.js';
import { sdkSigner } from '../support/cloud-api-signer.js';

/*
 * The cloud API on a cluster (issue 29): a request sent to any node acts where the room or the task lives
 * (real redis-server, two real servers, the official trtc client pointed at the node that does not host).
 */

const KEY = { secretId: 'AKIDconclaveClusterApi0001', secretKey: 'cluster-cloud-api-secret-0123456789' };
const APP = { sdkAppId: 1400330001, secretKey: 'cluster-cloud-api-sig-0123456789', adminKey: 'cluster-cloud-api-admin-0123456789', cloudApiKeys: [KEY] };

describe('cloud API across cluster nodes', () => {
  let redis: TestRedis;
  /** The cluster secret the nodes share (none configured: the first node put a random one in Redis). */
  let secret: string;
  const nodes: RunningServer[] = [];
  const clients: WsClient[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'conclave-cloud-cluster-'));

  beforeAll(async () => {
    redis = await TestRedis.start();
    for (const nodeId of ['ca', 'cb']) {
      nodes.push(await startTestServer({ apps: [APP], redisUrl: redis.url, nodeId, media: { recordingPath: join(dir, nodeId) }, limits: { cloudApiRequestsPerSecond: 1000 } }));
    }
    const reader = new Redis(redis.url);
    secret = (await reader.get(KEYS.clusterSecret)) ?? '';
    reader.disconnect();
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const n of nodes) await n.close();
    await redis?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The node scheduling places a room on, as the SDK would be sent there. */
  const placeRoom = async (roomId: string): Promise<RunningServer> => {
    const form = new URLSearchParams({ sdkAppId: String(APP.sdkAppId), userId: 'sched', userSig: await genUserSig({ ...APP, userId: 'sched' }), groupId: roomId, isStrGroupId: 'false', sdkVersion: '5.10.1' });
    const answer = (await httpJson(`${nodes[0].url}${SCHEDULE_PATH}`, { method: 'POST', body: form })).body as { data?: { domains: { main: string } } };
    const host = nodes.find((n) => answer.data?.domains.main.startsWith(n.url.replace(/^http/, 'ws')));
    if (!host) throw new Error(`room ${roomId} was placed on no test node`);
    return host;
  };
  const trtcVia = (node: RunningServer) => officialTrtcClient(node.url, KEY);
  /** An admin request answered by `node` alone, signed as another node signs it. */
  const local = (node: RunningServer, path: string, signed = nodeSignature(secret, { method: 'GET', path })) =>
    httpJson(`${node.url}${path}`, { headers: { authorization: `Bearer ${APP.adminKey}`, [LOCAL_HEADER]: signed } });
  const auditOn = async (node: RunningServer) => ((await local(node, `/admin/v1/apps/${APP.sdkAppId}/logs?cmdType=server_event`)).body.logs as { log: string }[])
    .map((l) => l.log.replace(/ \(SecretId.*$/, ''));

  it('cloud API requests reach the node that holds the room or the task: RemoveUser, recording tasks, DismissRoom sent to the other node', async () => {
    const host = await placeRoom('801');
    const other = nodes.find((n) => n !== host)!;
    const alice = await joined(host, APP, 'alice', '801');
    const bob = await joined(host, APP, 'bob', '801');
    clients.push(alice, bob);
    const trtc = trtcVia(other);

    await trtc.RemoveUser({ SdkAppId: APP.sdkAppId, RoomId: 801, UserIds: ['bob'] });
    expect((await bob.waitForPush('banned')).data).toMatchObject({ reason: 'kick' });
    expect(alice.pushes('banned')).toEqual([]);
    // Done on the host, audited there; the other node did nothing.
    expect(await auditOn(host)).toContain('cloud-api RemoveUser: removed');
    expect(await auditOn(other)).toEqual([]);

    const { TaskId } = await trtc.CreateCloudRecording({ SdkAppId: APP.sdkAppId, RoomId: '801', UserId: 'robot', UserSig: 'sig', RecordParams: { RecordMode: 2 }, StorageParams: {} });
    const taskId = TaskId ?? '';
    for (const via of [trtc, trtcVia(host)]) expect((await via.DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status).toBe('Idle');
    expect(await trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: { UnSubscribeVideoUserIds: ['alice'] } })).toMatchObject({ TaskId: taskId });
    expect(await trtc.DeleteCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).toMatchObject({ TaskId: taskId });
    expect((await trtcVia(host).DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status).toBe('Exited');

    await trtc.DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 801 });
    expect((await alice.waitForPush('banned')).data).toMatchObject({ reason: 'room_disband' });
    expect(await auditOn(other)).toEqual([]);
    // A room nobody holds is answered by the node asked.
    await expect(trtc.DismissRoom({ SdkAppId: APP.sdkAppId, RoomId: 802 })).rejects.toMatchObject({ code: 'FailedOperation.RoomNotExist' });
  }, 30_000);

  it('38.6 a signature accepted by one node is refused by the others (Redis remembers it for the clock-skew window)', async () => {
    // Signed as the official client signs (content-type;host, host without its port: both nodes are on 127.0.0.1).
    const payload = { SdkAppId: APP.sdkAppId, RoomId: 899 };
    const timestamp = Math.floor(Date.now() / 1000);
    const authorization = sdkSigner.sign3({ method: 'POST', url: `${nodes[0].url}/`, payload, timestamp, service: 'trtc', ...KEY, headers: { 'Content-Type': 'application/json' } });
    const send = async (node: RunningServer) => ((await httpJson(`${node.url}/`, {
      method: 'POST', body: JSON.stringify(payload),
      headers: { 'Content-Type': 'application/json', Authorization: authorization, 'X-TC-Action': 'DismissRoom', 'X-TC-Version': '2019-07-22', 'X-TC-Timestamp': String(timestamp) },
    })).body.Response as { Error?: { Code: string } }).Error?.Code;
    expect(await send(nodes[0])).toBe('FailedOperation.RoomNotExist');
    expect(await send(nodes[1])).toBe('AuthFailure.SignatureExpire');
    expect(await send(nodes[0])).toBe('AuthFailure.SignatureExpire');
  });

  it('38.low node-to-node requests are signed with the cluster secret: unsigned, stale, tampered or wrongly keyed ones are refused', async () => {
    const path = `/admin/v1/apps/${APP.sdkAppId}/rooms`;
    expect((await local(nodes[0], path)).status).toBe(200);
    for (const signed of [
      '1',
      nodeSignature(secret, { method: 'GET', path }, Date.now() - 120_000),
      nodeSignature(secret, { method: 'GET', path: `/admin/v1/apps/${APP.sdkAppId}/logs` }),
      nodeSignature(secret, { method: 'POST', path }),
      nodeSignature('not-the-cluster-secret-0123456789', { method: 'GET', path }),
    ]) {
      const answer = await local(nodes[0], path, signed);
      expect([answer.status, answer.body.code], signed).toEqual([403, HTTP_CODE.NODE_SIGNATURE_INVALID]);
    }
    // The cloud API refuses in its own shape.
    const cloud = await httpJson(`${nodes[0].url}/`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', [LOCAL_HEADER]: '1' } });
    expect((cloud.body.Response as { Error?: { Code: string } }).Error?.Code).toBe('AuthFailure.SignatureFailure');
    // A body other than the one signed is refused when it is read.
    const banPath = `/admin/v1/apps/${APP.sdkAppId}/rooms/1/users/mallory/ban`;
    const tampered = await httpJson(`${nodes[0].url}${banPath}`, {
      method: 'POST', body: JSON.stringify({ seconds: 99_999 }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${APP.adminKey}`, [LOCAL_HEADER]: nodeSignature(secret, { method: 'POST', path: banPath, body: Buffer.from(JSON.stringify({ seconds: 1 })) }) },
    });
    expect([tampered.status, tampered.body.code]).toEqual([403, HTTP_CODE.NODE_SIGNATURE_INVALID]);
    expect((await local(nodes[0], `/admin/v1/apps/${APP.sdkAppId}/bans`)).body).toEqual({ bans: [] });
  });
});
