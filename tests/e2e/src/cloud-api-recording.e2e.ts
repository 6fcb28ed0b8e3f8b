/**
 * Cloud recording through TRTC's server API (the official tencentcloud-sdk-nodejs trtc client, unchanged but for
 * its endpoint): CreateCloudRecording → DescribeCloudRecording → a playable MP4 → DeleteCloudRecording, on the
 * server's recording jobs, with a real page publishing; the app's backend receives the recording callbacks
 * (301 started, 310 with the MP4 file, 302 stopped), signed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';
import { officialTrtcClient } from '../../kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { CallbackReceiver } from '../../kit/callback-receiver.js';
import { AppHost, eventsOf } from './harness/client-page.js';
import { join as joinRoom } from './harness/join.js';
import { colorAt, colorName, fakeMediaArgs, grabFrames, makeFakeMedia, probe } from './harness/media-probe.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

const KEY = { secretId: 'AKIDconclaveE2eRecording01', secretKey: 'conclave-e2e-cloud-rec-secret-012345' };
const ADMIN_KEY = 'e2e-cloud-rec-admin-key-012345678';
const CALLBACK_KEY = 'e2eRecordingCallbackKey01';
const BLUE = '#0000FF';

describe('cloud recording through the TRTC server API', () => {
  let server: TestServer;
  let app: AppHost;
  let browser: LaunchedBrowser;
  let folder: string;
  let trtc: TrtcClient;
  let sink: CallbackReceiver;

  beforeAll(async () => {
    const media = await makeFakeMedia('cloud-rec-red', 'red', 440);
    folder = mkdtempSync(join(tmpdir(), 'conclave-cloud-rec-'));
    sink = await CallbackReceiver.start(CALLBACK_KEY);
    server = await startTestServer({ apps: [{ ...TEST_APP, adminKey: ADMIN_KEY, cloudApiKeys: [KEY], callback: { url: sink.url, key: CALLBACK_KEY } }], media: { recordingPath: folder } });
    app = await AppHost.start(server.url);
    browser = await launchBrowser(fakeMediaArgs(media));
    trtc = officialTrtcClient(server.url, KEY);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
    await sink?.down();
    rmSync(folder, { recursive: true, force: true });
  });

  const recordings = async () => ((await (await fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}/recordings`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json()) as {
    recordings: { recordingId: string; recordId: string; recording: boolean }[];
  }).recordings;

  it('CreateCloudRecording → DescribeCloudRecording → a playable MP4 → DeleteCloudRecording', async () => {
    const page = await app.open(browser.context);
    expect(await joinRoom(page, server, 'rec-anchor', { roomId: 8201 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(page, 'publish-state-changed')).some((e) => e.data.state === 'started'), { timeout: 15_000 }).toBe(true);

    const created = await trtc.CreateCloudRecording({
      SdkAppId: TEST_APP.sdkAppId, RoomId: '8201', UserId: 'recorder-robot', UserSig: await server.sig('recorder-robot'),
      RecordParams: { RecordMode: 2 }, StorageParams: {}, MixLayoutParams: { MixLayoutMode: 3, BackGroundColor: BLUE },
    });
    const taskId = created.TaskId!;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const describe = () => trtc.DescribeCloudRecording({ SdkAppId: TEST_APP.sdkAppId, TaskId: taskId });
    await expect.poll(async () => (await describe()).Status, { timeout: 30_000 }).toBe('InProgress');
    await expect.poll(async () => (await describe()).StorageFileList?.length, { timeout: 30_000 }).toBe(1);
    const startedAt = Date.now();
    // Some seconds of each layout (the condition is the elapsed time itself): the anchor's picture fills the
    // frame, then (ModifyCloudRecording) the left half, then its video is dropped and the background shows.
    const recorded = (ms: number) => expect.poll(() => Date.now() - startedAt, { timeout: 10_000, interval: 200 }).toBeGreaterThanOrEqual(ms);
    await recorded(3_000);
    await trtc.ModifyCloudRecording({
      SdkAppId: TEST_APP.sdkAppId, TaskId: taskId,
      MixLayoutParams: { MixLayoutMode: 4, BackGroundColor: BLUE, MixLayoutList: [{ Top: 0, Left: 0, Width: 320, Height: 360, UserId: 'rec-anchor', RenderMode: 0 }] },
    });
    await recorded(6_000);
    await trtc.ModifyCloudRecording({ SdkAppId: TEST_APP.sdkAppId, TaskId: taskId, SubscribeStreamUserIds: { UnSubscribeVideoUserIds: ['rec-anchor'] } });
    await recorded(9_000);

    expect(await trtc.DeleteCloudRecording({ SdkAppId: TEST_APP.sdkAppId, TaskId: taskId })).toMatchObject({ TaskId: taskId });
    const ended = await describe();
    expect(ended.Status).toBe('Exited');
    const [file] = ended.StorageFileList!;
    expect(file).toMatchObject({ UserId: '', TrackType: 'audio_video' });
    await expect.poll(async () => (await recordings()).find((r) => r.recordingId === file.FileName)?.recording, { timeout: 20_000 }).toBe(false);
    // The file is the task's, and the recording did not start again.
    expect((await recordings()).filter((r) => r.recordId === taskId).map((r) => r.recordingId)).toEqual([file.FileName]);

    const res = await fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}/recordings/${encodeURIComponent(file.FileName!)}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(res.status).toBe(200);
    const path = join(folder, 'download.mp4');
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    const probed = await probe(path);
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    expect(probed.duration).toBeGreaterThan(7);
    // The file shows the changes, in order: red full frame, red left half on blue, then the blue background only.
    const halves = (await grabFrames(path, 64, 36, 2)).map((frame) => [
      colorName(colorAt(frame, 64, { x: 10, y: 12, w: 12, h: 12 })), colorName(colorAt(frame, 64, { x: 42, y: 12, w: 12, h: 12 })),
    ].join('/'));
    const known = halves.filter((h) => ['red/red', 'red/blue', 'blue/blue'].includes(h));
    const shown = known.filter((h, i) => h !== known[i - 1]);
    expect(shown.slice(-3), halves.join(' ')).toEqual(['red/red', 'red/blue', 'blue/blue']);
    // The backend heard of it: 301 when it started, 310 with this file, then 302; each signed.
    const recordingEvents = () => sink.received.filter((e) => e.EventGroupId === 3 && e.EventInfo.TaskId === taskId);
    await expect.poll(() => recordingEvents().map((e) => e.EventType), { timeout: 15_000 }).toEqual([301, 310, 302]);
    expect(recordingEvents().every((e) => e.signOk)).toBe(true);
    expect(recordingEvents()[1].EventInfo).toMatchObject({ RoomId: 8201, Payload: { Status: 0, FileList: [file.FileName], FileMessage: [{ FileName: file.FileName, MediaId: 'mix', TrackType: 'audio_video' }] } });
    // Stopping the recording removed nobody.
    expect(await eventsOf(page, 'kicked-out')).toEqual([]);
    await page.close();
  });
});
