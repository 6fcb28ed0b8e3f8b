import { CDN_CODE, SERVER_CODE } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_FAILED } from '../../src/jobs/rtmp-target.js';
import type { RunningServer } from '../../src/server.js';
import { joined, metricsText, startTestServer, type WsClient } from '../support/clients.js';
import { closedPort, tcpListener as listener } from '../support/tcp-listener.js';

/*
 * The CDN commands against a real server (embedded engine, real media jobs): where a job may publish (issue 38
 * item 5), whose media it may take (item 9) and how many may run (item 10). The RTMP "servers" are plain TCP
 * listeners on loopback that count the connections they get: enough to see whether the server dialled them.
 */

/** An app that lists no RTMP host: its clients may publish nowhere but the shared ingest. */
const OPEN = { sdkAppId: 1400310001, secretKey: 'cdn-commands-open-app-key-0123456789' };
/** An app whose operator listed loopback (as the e2e tests' nginx-rtmp needs) and a name that resolves there. */
const LISTED = { sdkAppId: 1400310002, secretKey: 'cdn-commands-listed-app-key-012345678', rtmpHosts: ['127.0.0.1:*', 'localhost:*'] };

const relay = (url: string, publishMode = 'PublishMainStreamToCDN') => ({ publishMode, url });
const smallMix = (userId: string, extra: Record<string, unknown>) => ({
  publishMode: 'PublishMixStreamToCDN', encoding: { videoWidth: 160, videoHeight: 90, videoFramerate: 5, videoBitrate: 100 },
  mix: { videoLayoutList: [{ userId, streamType: 'main', fillMode: 0, width: 160, height: 90, locationX: 0, locationY: 0, zOrder: 1 }] }, ...extra,
});

describe('CDN commands: targets and privileges', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  const join = async (app: typeof OPEN, userId: string, room: string, extra: Record<string, unknown> = {}) => {
    const c = await joined(server, app, userId, room, extra);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer({ apps: [OPEN, LISTED] });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('38.5 a joined user cannot make the server dial a host its app does not list (nor a listed name that resolves inwards): no connection, one generic answer', async () => {
    const target = await listener('silent');
    try {
      const alice = await join(OPEN, 'alice', '3101');
      const url = `rtmp://127.0.0.1:${target.port}/live/probe`;
      for (const data of [relay(url), relay(url, 'PublishSubStreamToCDN'), smallMix('alice', { url })]) {
        const reply = await alice.request('cdn-start', data, 20_000);
        expect(reply, data.publishMode).toMatchObject({ code: CDN_CODE.START_PUBLISH_CDN_FAILED, message: CDN_FAILED });
      }
      const bob = await join(LISTED, 'bob', '3102');
      const inward = await bob.request('cdn-start', relay(`rtmp://localhost:${target.port}/live/probe`), 20_000);
      expect(inward).toMatchObject({ code: CDN_CODE.START_PUBLISH_CDN_FAILED, message: CDN_FAILED });
      expect(target.connections()).toBe(0);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('38.5 on a listed host, a closed port, a port that hangs up and one that answers garbage give the same answer', async () => {
    const hangUp = await listener('close');
    const garbage = await listener('garbage');
    try {
      const ports = [await closedPort(), hangUp.port, garbage.port];
      const users = await Promise.all(ports.map((_, i) => join(LISTED, `u${i}`, '3103')));
      const replies = await Promise.all(users.map((c, i) => c.request('cdn-start', relay(`rtmp://127.0.0.1:${ports[i]}/live/x`), 30_000)));
      for (const reply of replies) expect(reply).toMatchObject({ code: CDN_CODE.START_PUBLISH_CDN_FAILED, message: CDN_FAILED });
      // The listed host was dialled: the answers are alike although the ports were not.
      expect(hangUp.connections()).toBeGreaterThan(0);
      expect(garbage.connections()).toBeGreaterThan(0);
    } finally {
      await hangUp.close();
      await garbage.close();
    }
  }, 60_000);

  it('38.9 relaying one\'s own stream needs the privilege to send it (privateMapKey): refused before any connection', async () => {
    const target = await listener('silent');
    try {
      const privilegeMap = PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO | PRIVILEGE.RECV_SUB_VIDEO;
      const privateMapKey = await genPrivateMapKey({ ...LISTED, userId: 'mute', roomId: 3104, privilegeMap });
      const mute = await join(LISTED, 'mute', '3104', { privateMapKey });
      for (const publishMode of ['PublishMainStreamToCDN', 'PublishSubStreamToCDN']) {
        const reply = await mute.request('cdn-start', relay(`rtmp://127.0.0.1:${target.port}/live/x`, publishMode), 20_000);
        expect(reply, publishMode).toMatchObject({ code: SERVER_CODE.PRIVILEGE_DENIED });
      }
      expect(target.connections()).toBe(0);
    } finally {
      await target.close();
    }
  }, 45_000);
});

describe('CDN commands: job caps', () => {
  const X = { sdkAppId: 1400310003, secretKey: 'cdn-commands-cap-app-x-key-012345678', rtmpHosts: ['127.0.0.1:*'] };
  const Y = { sdkAppId: 1400310004, secretKey: 'cdn-commands-cap-app-y-key-012345678' };
  let server: RunningServer;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ apps: [X, Y], limits: { jobsPerUser: 1, jobsPerApp: 2, jobsPerNode: 3 } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('38.10 running jobs are capped per user, per app and per node, with a coded refusal and a counter', async () => {
    const target = await listener('silent');
    try {
      const user = async (app: typeof X | typeof Y, userId: string) => {
        const c = await joined(server, app, userId, '3105');
        clients.push(c);
        return c;
      };
      const [alice, bob, carol, dave, erin] = await Promise.all([user(X, 'alice'), user(X, 'bob'), user(X, 'carol'), user(Y, 'dave'), user(Y, 'erin')]);
      // A WHEP-only mix needs no RTMP server: exactly what the caps are for.
      const mix = (c: WsClient, userId: string) => c.request('cdn-start', smallMix(userId, { streamId: `m-${userId}` }), 30_000);
      expect(await mix(alice, 'alice')).toMatchObject({ code: 0 });
      // A second job of the same user: refused before anything is dialled.
      expect(await alice.request('cdn-start', relay(`rtmp://127.0.0.1:${target.port}/live/x`, 'PublishSubStreamToCDN'))).toMatchObject({ code: SERVER_CODE.TOO_MANY_JOBS });
      expect(target.connections()).toBe(0);
      expect(await mix(bob, 'bob')).toMatchObject({ code: 0 });
      expect(await mix(carol, 'carol')).toMatchObject({ code: SERVER_CODE.TOO_MANY_JOBS });
      expect(await mix(dave, 'dave')).toMatchObject({ code: 0 });
      expect(await mix(erin, 'erin')).toMatchObject({ code: SERVER_CODE.TOO_MANY_JOBS });
      const metrics = await metricsText(server);
      for (const limit of ['user', 'app', 'node']) expect(metrics).toMatch(new RegExp(`conclave_media_jobs_refused_total\\{limit="${limit}"\\} 1`));
      // A job that ends frees its place.
      expect(await alice.request('cdn-stop', { publishMode: 'PublishMixStreamToCDN' })).toMatchObject({ code: 0 });
      expect(await mix(erin, 'erin')).toMatchObject({ code: 0 });
    } finally {
      await target.close();
    }
  }, 90_000);
});
