/**
 * CDN relays through TRTC's server API (the official tencentcloud-sdk-nodejs trtc client, unchanged but for its
 * endpoint): StartPublishCdnStream produces RTMP output that ffmpeg reads (a loopback nginx-rtmp "CDN"), and
 * UpdatePublishCdnStream moves it, StopPublishCdnStream ends it; StartMCUMixTranscodeByStrRoomId mixes the room to the ingest under its StreamId.
 */
import type { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';
import { officialTrtcClient } from '../../kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf } from './harness/client-page.js';
import { join as joinRoom } from './harness/join.js';
import { colorAt, colorName, fakeMediaArgs, grabFrame, makeFakeMedia, probe } from './harness/media-probe.js';
import { RtmpCdn } from './harness/rtmp-cdn.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';
import { nextSecond } from '../../kit/next-second.js';

const KEY = { secretId: 'AKIDconclaveE2eCdnRelay001', secretKey: 'conclave-e2e-cloud-cdn-secret-012345' };

describe('CDN relays through the TRTC server API', () => {
  let server: TestServer;
  let app: AppHost;
  let browser: LaunchedBrowser;
  let rtmp: RtmpCdn;
  let trtc: TrtcClient;

  beforeAll(async () => {
    const media = await makeFakeMedia('cloud-cdn-blue', 'blue', 1000);
    rtmp = await RtmpCdn.start();
    // The ingest a mix transcode's StreamId is published under.
    // The loopback nginx-rtmp "CDN" is on 127.0.0.1: the operator lists it (docs/behaviour.md §5.5).
    server = await startTestServer({ apps: [{ ...TEST_APP, cloudApiKeys: [KEY], rtmpHosts: ['127.0.0.1:*'] }], media: { rtmpIngest: rtmp.url('') } });
    app = await AppHost.start(server.url);
    browser = await launchBrowser(fakeMediaArgs(media));
    trtc = officialTrtcClient(server.url, KEY);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
    await rtmp?.close();
  });

  it('StartPublishCdnStream produces RTMP output that ffmpeg reads, and StopPublishCdnStream ends it', async () => {
    const page = await app.open(browser.context);
    expect(await joinRoom(page, server, 'cdn-anchor', { roomId: 8301 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(page, 'publish-state-changed')).some((e) => e.data.state === 'started'), { timeout: 15_000 }).toBe(true);

    const name = 'cloud8301';
    const url = rtmp.url(name);
    const started = await trtc.StartPublishCdnStream({
      SdkAppId: TEST_APP.sdkAppId, RoomId: '8301', RoomIdType: 0, AgentParams: { UserId: 'cdn-robot' }, WithTranscoding: 0,
      SingleSubscribeParams: { UserMediaStream: { UserInfo: { UserId: 'cdn-anchor' }, StreamType: 0 } },
      PublishCdnParams: [{ PublishCdnUrl: url, IsTencentCdn: 0 }],
    });
    const taskId = started.TaskId!;
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const { streams } = await probe(url);
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264' });
    expect(streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    await expect.poll(async () => {
      const frame = await grabFrame(url, 64, 48).catch(() => undefined);
      return frame ? colorName(colorAt(frame, 64, { x: 16, y: 12, w: 32, h: 24 })) : 'no frame';
    }, { timeout: 20_000, interval: 500 }).toBe('blue');
    expect(rtmp.publishes(name)).toBe(1);
    expect(rtmp.publishesDone(name)).toHaveLength(0);

    // UpdatePublishCdnStream moves the task to another URL (same TaskId); a SequenceNumber not above the last is refused.
    const moved = 'cloud8301b';
    const update = { SdkAppId: TEST_APP.sdkAppId, TaskId: taskId, SequenceNumber: 1, WithTranscoding: 0, PublishCdnParams: [{ PublishCdnUrl: rtmp.url(moved), IsTencentCdn: 0 }] };
    expect(await trtc.UpdatePublishCdnStream(update)).toMatchObject({ TaskId: taskId });
    await expect.poll(() => rtmp.publishesDone(name).length, { timeout: 10_000, interval: 100 }).toBe(1);
    expect((await probe(rtmp.url(moved))).streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264' });
    await nextSecond(); // the same write signed in the same second would be refused as a replay (docs/behaviour.md §10.3)
    await expect(trtc.UpdatePublishCdnStream(update)).rejects.toMatchObject({ code: 'InvalidParameter.SequenceNumber' });

    expect(await trtc.StopPublishCdnStream({ SdkAppId: TEST_APP.sdkAppId, TaskId: taskId })).toMatchObject({ TaskId: taskId });
    await expect.poll(() => rtmp.publishesDone(moved).length, { timeout: 10_000, interval: 100 }).toBe(1);
    // The task is gone: stopping it again is refused; the user is still in the room.
    await nextSecond();
    await expect(trtc.StopPublishCdnStream({ SdkAppId: TEST_APP.sdkAppId, TaskId: taskId })).rejects.toMatchObject({ code: 'InvalidParameter.TaskId' });
    expect(await eventsOf(page, 'kicked-out')).toEqual([]);
    await page.close();
  });

  it('StartPublishCdnStream with transcoding mixes the room at the asked size into one RTMP stream, adding users who publish later', async () => {
    const page = await app.open(browser.context);
    expect(await joinRoom(page, server, 'mix-anchor', { strRoomId: 'cloud-mix' })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(page, 'publish-state-changed')).some((e) => e.data.state === 'started'), { timeout: 15_000 }).toBe(true);
    const name = 'cloudmix';
    const url = rtmp.url(name);
    const { TaskId } = await trtc.StartPublishCdnStream({
      SdkAppId: TEST_APP.sdkAppId, RoomId: 'cloud-mix', RoomIdType: 1, AgentParams: { UserId: 'cdn-robot' }, WithTranscoding: 1,
      VideoParams: { VideoEncode: { Width: 320, Height: 240, Fps: 15, BitRate: 400, Gop: 2 } },
      AudioParams: { AudioEncode: { SampleRate: 48000, Channel: 1, BitRate: 64 } },
      PublishCdnParams: [{ PublishCdnUrl: url, IsTencentCdn: 0 }],
    });
    const { streams } = await probe(url);
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    await expect.poll(async () => {
      const frame = await grabFrame(url, 64, 48).catch(() => undefined);
      return frame ? colorName(colorAt(frame, 64, { x: 16, y: 12, w: 32, h: 24 })) : 'no frame';
    }, { timeout: 20_000, interval: 500 }).toBe('blue');
    // A user who publishes later joins the grid: the first one left, the newcomer right.
    const redBrowser = await launchBrowser(fakeMediaArgs(await makeFakeMedia('cloud-cdn-red', 'red', 440)));
    try {
      const late = await app.open(redBrowser.context);
      expect(await joinRoom(late, server, 'mix-late', { strRoomId: 'cloud-mix' })).toEqual({ ok: true });
      await expect.poll(async () => {
        const frame = await grabFrame(url, 64, 48).catch(() => undefined);
        return frame ? [colorName(colorAt(frame, 64, { x: 8, y: 18, w: 12, h: 12 })), colorName(colorAt(frame, 64, { x: 44, y: 18, w: 12, h: 12 }))] : [];
      }, { timeout: 30_000, interval: 500 }).toEqual(['blue', 'red']);
      expect(rtmp.publishes(name)).toBe(1);
      await late.close();
    } finally {
      await redBrowser.close();
    }
    await trtc.StopPublishCdnStream({ SdkAppId: TEST_APP.sdkAppId, TaskId: TaskId! });
    await expect.poll(() => rtmp.publishesDone(name).length, { timeout: 10_000, interval: 100 }).toBe(1);
    await page.close();
  });

  it('StartMCUMixTranscodeByStrRoomId publishes the mix under its StreamId at the ingest; StopMCUMixTranscodeByStrRoomId ends it', async () => {
    const page = await app.open(browser.context);
    expect(await joinRoom(page, server, 'mcu-anchor', { strRoomId: 'cloud-mcu' })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(page, 'publish-state-changed')).some((e) => e.data.state === 'started'), { timeout: 15_000 }).toBe(true);
    const streamId = 'mcu_cloud';
    await trtc.StartMCUMixTranscodeByStrRoomId({
      SdkAppId: TEST_APP.sdkAppId, StrRoomId: 'cloud-mcu', OutputParams: { StreamId: streamId },
      EncodeParams: { AudioSampleRate: 48000, AudioBitrate: 64, AudioChannels: 1, VideoWidth: 320, VideoHeight: 180, VideoBitrate: 300, VideoFramerate: 15, VideoGop: 2 },
      LayoutParams: { Template: 0 },
    });
    // On the shared ingest a StreamId is namespaced by app and room: <sdkAppId>_<room>_<StreamId>.
    const published = `${TEST_APP.sdkAppId}_s-cloud-mcu_${streamId}`;
    const url = rtmp.url(published);
    const { streams } = await probe(url);
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    await expect.poll(async () => {
      const frame = await grabFrame(url, 64, 36).catch(() => undefined);
      return frame ? colorName(colorAt(frame, 64, { x: 16, y: 9, w: 32, h: 18 })) : 'no frame';
    }, { timeout: 20_000, interval: 500 }).toBe('blue');
    await trtc.StopMCUMixTranscodeByStrRoomId({ SdkAppId: TEST_APP.sdkAppId, StrRoomId: 'cloud-mcu' });
    await expect.poll(() => rtmp.publishesDone(published).length, { timeout: 10_000, interval: 100 }).toBe(1);
    await nextSecond();
    await expect(trtc.StopMCUMixTranscodeByStrRoomId({ SdkAppId: TEST_APP.sdkAppId, StrRoomId: 'cloud-mcu' })).rejects.toMatchObject({ code: 'FailedOperation' });
    await page.close();
  });
});
