import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAG } from '@conclave/protocol';
import { officialTrtcClient, trtcRefusalCode } from '../../../../tests/kit/official-trtc-client.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { httpJson, joined, startTestServer, type WsClient } from '../support/clients.js';
import { nextSecond } from '../../../../tests/kit/next-second.js';

/*
 * The cloud API's tasks (issue 29): ModifyCloudRecording on a running recording job, and TaskIds that still
 * answer after a restart (tasks stored in the server's SQLite file), driven by the official trtc client.
 */

const KEY = { secretId: 'AKIDconclaveCloudTasks0001', secretKey: 'cloud-tasks-secret-key-0123456789' };
const APP = { sdkAppId: 1400300021, secretKey: 'cloud-tasks-app-user-sig-key-0123', adminKey: 'cloud-tasks-admin-key-0123456789', cloudApiKeys: [KEY] };

const dir = mkdtempSync(join(tmpdir(), 'conclave-cloud-tasks-'));
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function server(storagePath = ':memory:'): Promise<RunningServer> {
  const started = await startTestServer({ apps: [APP], storage: { path: storagePath }, media: { recordingPath: join(dir, 'recordings') }, limits: { cloudApiRequestsPerSecond: 1000 } });
  open.push(started);
  return started;
}

async function user(s: RunningServer, userId: string, roomId: string, flag = 0): Promise<WsClient> {
  const client = await joined(s, APP, userId, roomId);
  open.push(client);
  if (flag) expect((await client.request('mute-flag', { flag })).code).toBe(0);
  return client;
}

const client = (s: RunningServer) => officialTrtcClient(s.url, KEY);

type JobInfo = { jobId: string; kind: string; state: string; inputs: { userId: string; bound: boolean }[] };
const jobsOf = async (s: RunningServer) => (await httpJson(`${s.url}/admin/v1/apps/${APP.sdkAppId}/jobs`, { headers: { authorization: `Bearer ${APP.adminKey}` } })).body.jobs as JobInfo[];
const auditOf = async (s: RunningServer) => ((await httpJson(`${s.url}/admin/v1/apps/${APP.sdkAppId}/logs?cmdType=server_event`, { headers: { authorization: `Bearer ${APP.adminKey}` } })).body.logs as { log: string }[]).map((l) => l.log);

const create = { SdkAppId: APP.sdkAppId, UserId: 'robot', UserSig: 'sig', RecordParams: { RecordMode: 2 }, StorageParams: {} };

describe('cloud API tasks', () => {
  it("ModifyCloudRecording changes a running recording's subscriptions and layout live, and refuses what it cannot do", async () => {
    const s = await server();
    await user(s, 'alice', '701', FLAG.VIDEO | FLAG.AUDIO);
    await user(s, 'bob', '701', FLAG.VIDEO | FLAG.AUDIO);
    const trtc = client(s);
    const { TaskId } = await trtc.CreateCloudRecording({ ...create, RoomId: '701', MixLayoutParams: { MixLayoutMode: 3, BackGroundColor: '#102030' } });
    const taskId = TaskId ?? '';
    // A real mix job records the room (its pipeline runs: no media arrives, the picture is the background).
    await expect.poll(async () => (await trtc.DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status, { timeout: 30_000, interval: 250 }).toBe('InProgress');
    await expect.poll(async () => (await jobsOf(s)).find((j) => j.kind === 'record-mix')?.state, { timeout: 30_000, interval: 250 }).toBe('running');
    const job = (await jobsOf(s)).find((j) => j.kind === 'record-mix');
    expect(job?.inputs.map((i) => i.userId).sort()).toEqual(['alice', 'bob']);

    // Bob's video leaves the mix: his input goes (its picture hidden) and comes back as audio only; the job goes on.
    expect(await trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: { UnSubscribeVideoUserIds: ['bob'] } })).toMatchObject({ TaskId: taskId });
    expect(await trtc.ModifyCloudRecording({
      SdkAppId: APP.sdkAppId, TaskId: taskId,
      MixLayoutParams: { MixLayoutMode: 4, MixLayoutList: [{ Top: 0, Left: 0, Width: 320, Height: 360, UserId: 'alice', RenderMode: 2 }] },
    })).toMatchObject({ TaskId: taskId });
    await expect.poll(async () => (await jobsOf(s)).find((j) => j.jobId === job?.jobId)?.inputs.filter((i) => i.bound).map((i) => i.userId).sort(), { timeout: 10_000 }).toEqual(['alice', 'bob']);
    expect((await jobsOf(s)).find((j) => j.jobId === job?.jobId)?.state).toBe('running');
    // Bob's audio too: he is no input of the mix any more.
    await trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: { UnSubscribeVideoUserIds: ['bob'], UnSubscribeAudioUserIds: ['b.*$'] } });
    await expect.poll(async () => (await jobsOf(s)).find((j) => j.jobId === job?.jobId)?.inputs.map((i) => i.userId), { timeout: 10_000 }).toEqual(['alice']);
    expect((await jobsOf(s)).find((j) => j.jobId === job?.jobId)?.state).toBe('running');
    expect((await auditOf(s)).filter((l) => l.includes('ModifyCloudRecording')).map((l) => l.replace(/ \(SecretId.*$/, ''))).toEqual([
      `cloud-api ModifyCloudRecording: recording task ${taskId} modified (filter)`,
      `cloud-api ModifyCloudRecording: recording task ${taskId} modified (layout)`,
      `cloud-api ModifyCloudRecording: recording task ${taskId} modified (filter)`,
    ]);

    // Bad parameters, in the API's codes; the task is unchanged and still answers.
    const modify = (extra: Record<string, unknown>) => trtcRefusalCode(trtc.request('ModifyCloudRecording', { SdkAppId: APP.sdkAppId, TaskId: taskId, ...extra }));
    expect(await modify({ MixLayoutParams: { MixLayoutMode: 7 } })).toBe('InvalidParameter.MixLayoutMode');
    expect(await modify({ MixLayoutParams: { MixLayoutMode: 4 } })).toBe('InvalidParameter.MixLayoutList');
    expect(await modify({ MixLayoutParams: { MixLayoutMode: 3, BackGroundColor: 'orange' } })).toBe('InvalidParameter.BackGroundColor');
    expect(await modify({ SubscribeStreamUserIds: { SubscribeAudioUserIds: 'bob' } })).toBe('InvalidParameter.SubscribeAudioUserIds');
    expect(await trtcRefusalCode(trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: 'no-such-task' }))).toBe('InvalidParameter.TaskId');

    await trtc.DeleteCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId });
    expect(await trtcRefusalCode(trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: {} }))).toBe('FailedOperation');
    expect((await trtc.DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status).toBe('Exited');
  });

  it('after a restart, Describe, Modify, Delete and Stop of existing TaskIds answer: a recording resumes when its users come back, CDN and mix tasks are reported ended', async () => {
    const path = join(dir, 'tasks.db');
    const first = await server(path);
    const alice = await user(first, 'alice', '702');
    const { TaskId } = await client(first).CreateCloudRecording({ ...create, RoomId: '702' });
    const taskId = TaskId ?? '';
    expect((await client(first).DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status).toBe('Idle');
    alice.close();
    await first.close();
    // A CDN relay and a room mix the stopped process ran (their jobs need a publisher and an RTMP server;
    // what is tested is what the restarted server answers about them).
    const store = Store.open(path);
    const at = Date.now();
    const task = { sdkAppId: APP.sdkAppId, roomRef: '703', roomKey: `${APP.sdkAppId}:i:703`, state: 'running' as const, createdAt: at, updatedAt: at };
    store.cloudTasks.put({ ...task, taskId: 'cdn-before-restart', kind: 'cdn', data: { jobId: 'cdn-before-restart', params: { WithTranscoding: 1 }, sequence: -1 } });
    store.cloudTasks.put({ ...task, taskId: `mcu:${task.roomKey}`, kind: 'mcu', data: { jobId: 'mix-job' } });
    store.close();

    const second = await server(path);
    const trtc = client(second);
    const describe = async () => (await trtc.DescribeCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).Status;
    // The recording waits for its room's users (Idle), takes changes meanwhile, and records again once they are back.
    expect(await describe()).toBe('Idle');
    expect(await trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: { SubscribeVideoUserIds: ['alice'] } })).toMatchObject({ TaskId: taskId });
    await user(second, 'alice', '702', FLAG.VIDEO | FLAG.AUDIO);
    await expect.poll(describe, { timeout: 30_000, interval: 250 }).toBe('InProgress');
    expect(await trtc.DeleteCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId })).toMatchObject({ TaskId: taskId });
    expect(await describe()).toBe('Exited');
    expect(await trtcRefusalCode(trtc.ModifyCloudRecording({ SdkAppId: APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: {} }))).toBe('FailedOperation');

    // The CDN task's job died with the process: Update refuses it, Stop answers once, then the task is gone.
    expect(await trtcRefusalCode(trtc.UpdatePublishCdnStream({ SdkAppId: APP.sdkAppId, TaskId: 'cdn-before-restart', SequenceNumber: 1, WithTranscoding: 1 }))).toBe('FailedOperation');
    expect(await trtc.StopPublishCdnStream({ SdkAppId: APP.sdkAppId, TaskId: 'cdn-before-restart' })).toMatchObject({ TaskId: 'cdn-before-restart' });
    await nextSecond(); // the same Stop again within the second would carry the same signature (refused as a replay)
    expect(await trtcRefusalCode(trtc.StopPublishCdnStream({ SdkAppId: APP.sdkAppId, TaskId: 'cdn-before-restart' }))).toBe('InvalidParameter.TaskId');
    // The room's mix too: Stop answers (nothing runs), a second Stop finds no mix.
    expect(await trtc.StopMCUMixTranscode({ SdkAppId: APP.sdkAppId, RoomId: 703 })).toEqual({ RequestId: expect.any(String) as string });
    await nextSecond();
    expect(await trtcRefusalCode(trtc.StopMCUMixTranscode({ SdkAppId: APP.sdkAppId, RoomId: 703 }))).toBe('FailedOperation');
    expect((await auditOf(second)).some((l) => l.includes('it had ended when the server restarted'))).toBe(true);
  });
});
