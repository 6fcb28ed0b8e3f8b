import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { call, eventsOf } from './harness/client-page.js';
import { TEST_APP } from './harness/server.js';

/** Issue 40, what 5.18 added to the core: the device lists' virtual-device filter, extraCode 5021, a screen profile changed live. */

type Labels = { cameras: string[]; microphones: string[] };
type Trtc = { getCameraList(o?: unknown): Promise<MediaDeviceInfo[]>; getMicrophoneList(o?: unknown): Promise<MediaDeviceInfo[]> };
type VideoStat = { width: number; height: number; frameRate: number; bitrate: number; videoType: string };

let fx: AppFixture | undefined;
let page: Page;

beforeAll(async () => {
  fx = await startAppFixture();
  page = await fx.app.open(fx.browser.context);
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
});

/** Replaces the page's device list (labels given: no permission prompt is needed to read them). */
const fakeDevices = (devices: { kind: MediaDeviceKind; label: string }[]) => page.evaluate((list) => {
  navigator.mediaDevices.enumerateDevices = () => Promise.resolve(list.map((d, i) => {
    const info = { deviceId: `${d.kind}-${i}`, groupId: 'g', kind: d.kind, label: d.label };
    return { ...info, toJSON: () => info } as MediaDeviceInfo;
  }));
}, devices);

/** Both lists' labels for one option, through the page's TRTC global. */
const lists = (option?: unknown) => page.evaluate(async (o) => {
  const TRTC = (window as unknown as { TRTC: Trtc }).TRTC;
  const args = o === undefined ? [] : [o];
  return { cameras: (await TRTC.getCameraList(...args)).map((d) => d.label), microphones: (await TRTC.getMicrophoneList(...args)).map((d) => d.label) };
}, option) as Promise<Labels>;

describe('issue 40: what 5.18 added to the core', () => {
  it('40 getCameraList/getMicrophoneList: filterVirtualDevice leaves out devices labelled virtual (a capture program\'s camera kept; all-virtual microphones all kept)', async () => {
    await fakeDevices([
      { kind: 'videoinput', label: 'Integrated Camera' }, { kind: 'videoinput', label: 'Virtual Camera' }, { kind: 'videoinput', label: 'OBS Virtual Camera' },
      { kind: 'audioinput', label: 'Built-in Microphone' }, { kind: 'audioinput', label: 'VB-Audio Virtual Cable' },
    ]);
    const all = { cameras: ['Integrated Camera', 'Virtual Camera', 'OBS Virtual Camera'], microphones: ['Built-in Microphone', 'VB-Audio Virtual Cable'] };
    expect(await lists()).toEqual(all);
    expect(await lists(true)).toEqual(all);
    expect(await lists({ requestPermission: false })).toEqual(all);
    expect(await lists({ filterVirtualDevice: true })).toEqual({ cameras: ['Integrated Camera', 'OBS Virtual Camera'], microphones: ['Built-in Microphone'] });
    // Every microphone virtual: the filtered list is the whole list.
    await fakeDevices([{ kind: 'videoinput', label: 'Virtual Camera' }, { kind: 'audioinput', label: 'Virtual Mic A' }, { kind: 'audioinput', label: 'Virtual Mic B' }]);
    expect((await lists({ requestPermission: false, filterVirtualDevice: true })).microphones).toEqual(['Virtual Mic A', 'Virtual Mic B']);
  });

  it('40 enterRoom: quickStart.remoteUserId equal to the local userId is INVALID_PARAMETER 5021; another user\'s id joins', async () => {
    const userSig = await fx!.server.sig('qs');
    await page.evaluate(() => (window as unknown as { e2e: { create(o?: unknown): void } }).e2e.create());
    const enter = { sdkAppId: TEST_APP.sdkAppId, userId: 'qs', userSig, roomId: 41_041 };
    expect(await call(page, 'enterRoom', { ...enter, quickStart: { remoteUserId: 'qs' } })).toMatchObject({
      ok: false, code: 5000, extraCode: 5021, message: expect.stringContaining("'quickStart.remoteUserId' cannot be the same as the local userId 'qs'."),
    });
    // An rtc anchor's quickStart is dropped as in the original; the join goes on.
    expect(await call(page, 'enterRoom', { ...enter, scene: 'rtc', quickStart: { remoteUserId: 'someone' } })).toMatchObject({ ok: true });
  });

  it('40 updateScreenShare({ option: { profile } }) changes the screen\'s encoding during the share, seen in the sender\'s statistics', async () => {
    // The client of the previous test is in the room: its statistics describe what it sends.
    const sub = async () => ((await eventsOf(page, 'statistics')).at(-1)?.data as { localStatistics: { video: VideoStat[] } } | undefined)?.localStatistics.video.find((v) => v.videoType === 'sub');
    expect(await call(page, 'startScreenShare', { option: { profile: '1080p_2' } })).toMatchObject({ ok: true });
    await expect.poll(async () => (await sub())?.frameRate ?? 0, { timeout: 20_000, interval: 200 }).toBeGreaterThan(15);
    const before = (await sub())!;
    expect(await call(page, 'updateScreenShare', { option: { profile: '720p' } })).toMatchObject({ ok: true });
    // 720p is 1280×720 at 5 fps, 1200 kbps.
    await expect.poll(async () => (await sub())?.frameRate ?? 99, { timeout: 20_000, interval: 200 }).toBeLessThanOrEqual(6);
    const after = (await sub())!;
    expect(after.width).toBeLessThanOrEqual(1280);
    expect(after.height).toBeLessThanOrEqual(720);
    expect(after.width * after.height).toBeLessThan(before.width * before.height + 1);
    const encoding = await page.evaluate(() => {
      const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((p) => p.connectionState !== 'closed');
      const sender = pcs.flatMap((p) => p.getSenders()).find((s) => s.track?.kind === 'video' && s.track.getSettings().displaySurface !== undefined);
      return sender?.getParameters().encodings[0];
    });
    expect(encoding).toMatchObject({ maxBitrate: 1_200_000, maxFramerate: 5 });
    console.log(`[figure] screen ${before.width}x${before.height} ${before.frameRate} fps → ${after.width}x${after.height} ${after.frameRate} fps after updateScreenShare`);
    expect(await call(page, 'stopScreenShare')).toMatchObject({ ok: true });
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
  });
});
