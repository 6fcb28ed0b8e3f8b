import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCHEDULE_PATH } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../server.js';
import { httpJson, joined, startTestServer, type WsClient } from '../test-support/clients.js';
import { TestRedis } from '../test-support/redis-server.js';

/*
 * The cloud API on a cluster (issue 29): a request sent to any node acts where the room or the task lives
 * (real redis-server, two real servers, the official trtc client pointed at the node that does not host).
 */

const KEY = { secretId: 'AKIDconclaveClusterApi0001', secretKey: 'cluster-cloud-api-secret-0123456789' };
const APP = { sdkAppId: 1400330001, secretKey: 'cluster-cloud-api-sig-0123456789', adminKey: 'cluster-cloud-api-admin-0123456789', cloudApiKeys: [KEY] };

describe('cloud API across cluster nodes', () => {
  let redis: TestRedis;
  const nodes: RunningServer[] = [];
  const clients: WsClient[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'conclave-cloud-cluster-'));

  beforeAll(async () => {
    redis = await TestRedis.start();
    for (const nodeId of ['ca', 'cb']) {
      nodes.push(await startTestServer({ apps: [APP], redisUrl: redis.url, nodeId, media: { recordingPath: join(dir, nodeId) }, limits: { cloudApiRequestsPerSecond: 1000 } }));
    }
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
  const trtcVia = (node: RunningServer) => new TrtcClient({ credential: KEY, region: 'ap-guangzhou', profile: { httpProfile: { endpoint: node.url.replace(/^http:\/\//, ''), protocol: 'http://' } } });
  const auditOn = async (node: RunningServer) => ((await httpJson(`${node.url}/admin/v1/apps/${APP.sdkAppId}/logs?cmdType=server_event`, {
    headers: { authorization: `Bearer ${APP.adminKey}`, 'x-conclave-local': '1' },
  })).body.logs as { log: string }[]).map((l) => l.log.replace(/ \(SecretId.*$/, ''));

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
});
