import { FLAG } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { officialTrtcClient, trtcRefusal } from '../../../../tests/kit/official-trtc-client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_FAILED } from '../../src/jobs/rtmp-target.js';
import type { RunningServer } from '../../src/server.js';
import { joined, startTestServer, type WsClient } from '../support/clients.js';
import { closedPort, tcpListener } from '../support/tcp-listener.js';

/*
 * Issue 38 item 5 on the server API: PublishCdnUrl (StartPublishCdnStream) and PublishCdnUrls
 * (StartMCUMixTranscode) reach only the app's listed RTMP hosts, and every refusal or failure is one answer.
 */

const OPEN_KEY = { secretId: 'AKIDconclaveCdnTargets0001', secretKey: 'cdn-targets-cloud-secret-one-012345' };
const LISTED_KEY = { secretId: 'AKIDconclaveCdnTargets0002', secretKey: 'cdn-targets-cloud-secret-two-012345' };
const OPEN = { sdkAppId: 1400340001, secretKey: 'cdn-targets-open-app-key-0123456789', cloudApiKeys: [OPEN_KEY] };
const LISTED = { sdkAppId: 1400340002, secretKey: 'cdn-targets-listed-app-key-012345678', cloudApiKeys: [LISTED_KEY], rtmpHosts: ['127.0.0.1:*'] };

describe('server API CDN targets', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ apps: [OPEN, LISTED], limits: { cloudApiRequestsPerSecond: 1000 } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  const publisher = async (app: typeof OPEN, userId: string, room: number) => {
    const c = await joined(server, app, userId, String(room));
    clients.push(c);
    expect((await c.request('mute-flag', { flag: FLAG.AUDIO | FLAG.VIDEO })).code).toBe(0);
    return c;
  };
  const relay = (app: typeof OPEN, room: number, userId: string, url: string) => ({
    SdkAppId: app.sdkAppId, RoomId: String(room), RoomIdType: 0, AgentParams: { UserId: 'robot' }, WithTranscoding: 0,
    SingleSubscribeParams: { UserMediaStream: { UserInfo: { UserId: userId } } }, PublishCdnParams: [{ PublishCdnUrl: url }],
  });

  it('38.5 PublishCdnUrl and PublishCdnUrls to a host the app does not list: nothing is dialled, one generic FailedOperation', async () => {
    const target = await tcpListener('silent');
    try {
      await publisher(OPEN, 'alice', 3401);
      const trtc = officialTrtcClient(server.url, OPEN_KEY, 60);
      const url = `rtmp://127.0.0.1:${target.port}/live/probe`;
      const answers = [
        await trtcRefusal(trtc.StartPublishCdnStream(relay(OPEN, 3401, 'alice', url))),
        await trtcRefusal(trtc.StartPublishCdnStream({ ...relay(OPEN, 3401, 'alice', url), WithTranscoding: 1, SingleSubscribeParams: undefined })),
        await trtcRefusal(trtc.StartMCUMixTranscode({
          SdkAppId: OPEN.sdkAppId, RoomId: 3401, OutputParams: { StreamId: 'probe' }, EncodeParams: { AudioSampleRate: 48000, AudioBitrate: 64, AudioChannels: 1 },
          LayoutParams: { Template: 0 }, PublishCdnParams: { BizId: 0, PublishCdnUrls: [url] },
        })),
      ];
      for (const answer of answers) expect(answer).toEqual({ code: 'FailedOperation', message: CDN_FAILED });
      expect(target.connections()).toBe(0);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('38.5 on a listed host, a closed port and one that hangs up give the same answer', async () => {
    const hangUp = await tcpListener('close');
    const closed = { port: await closedPort() };
    try {
      await publisher(LISTED, 'bob', 3402);
      const trtc = officialTrtcClient(server.url, LISTED_KEY, 60);
      const answers = await Promise.all([closed.port, hangUp.port].map((port) => trtcRefusal(trtc.StartPublishCdnStream(relay(LISTED, 3402, 'bob', `rtmp://127.0.0.1:${port}/live/x`)))));
      for (const answer of answers) expect(answer).toEqual({ code: 'FailedOperation', message: CDN_FAILED });
      expect(hangUp.connections()).toBeGreaterThan(0);
    } finally {
      await hangUp.close();
    }
  }, 60_000);

  it('38.9 a relay of a user whose privileges do not let it send that stream is refused, before anything is dialled', async () => {
    const target = await tcpListener('silent');
    try {
      const privilegeMap = PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO;
      const c = await joined(server, LISTED, 'carol', '3403', { privateMapKey: await genPrivateMapKey({ ...LISTED, userId: 'carol', roomId: 3403, privilegeMap }) });
      clients.push(c);
      const answer = await trtcRefusal(officialTrtcClient(server.url, LISTED_KEY, 60).StartPublishCdnStream(relay(LISTED, 3403, 'carol', `rtmp://127.0.0.1:${target.port}/live/x`)));
      expect(answer).toEqual({ code: 'FailedOperation', message: 'user carol may not send its main stream (privateMapKey): nothing to relay' });
      expect(target.connections()).toBe(0);
    } finally {
      await target.close();
    }
  }, 30_000);
});
