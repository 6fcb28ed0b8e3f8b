/**
 * The engine contract as a client sees it, through a real server and a real (embedded) engine: a change
 * the engine refuses is answered with its code, a downlink the server drops is announced with a push,
 * and a protocol version the server does not speak is refused with a message naming both versions.
 */
import { PROTOCOL_VERSION, SERVER_CODE, SUPPORTED_PROTOCOL_VERSIONS, type PushMessage } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { joinData, joined, startTestServer, WsClient } from '../support/clients.js';
import { uplink } from '../support/engine-peers.js';

const APP = { sdkAppId: 1400000777, secretKey: 'engine-contract-test-secret-0123456' };
const ALL = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };

describe('engine contract at the client', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  beforeAll(async () => { server = await startTestServer({ apps: [APP] }); });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
  });
  const join = async (userId: string, roomId: string) => {
    const c = await joined(server, APP, userId, roomId, { protocolVersion: PROTOCOL_VERSION });
    clients.push(c);
    return c;
  };

  it('a subscribe-change the engine refuses reaches the client as an error (SUBSCRIPTION_NOT_FOUND), not a success', async () => {
    const alice = await join('alice', '501');
    await join('bob', '501');
    const reply = await alice.request('subscribe-change', { srcUserId: 'bob', ...ALL });
    expect(reply.code).toBe(SERVER_CODE.SUBSCRIPTION_NOT_FOUND);
    expect(reply.message).toMatch(/subscribe-change failed \(not-subscribed\)/);
  });

  it('a downlink the server drops is announced by a downlink-closed push', async () => {
    const pub = await join('pub', '502');
    const sub = await join('sub', '502');
    const up = await uplink('H264');
    try {
      const published = await pub.request('publish', { sdp: up.offer });
      expect(published.code).toBe(0);
      const subscribed = sub.request('subscribe', { srcUserId: 'pub', ...ALL });
      const offer = await sub.waitForPush('downlink-offer');
      // A client whose answer the server cannot apply: its downlink fails there.
      const seq = (offer.data as { seq: number }).seq;
      await sub.request('downlink-answer', { seq, sdp: 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n' });
      await subscribed;
      const closed: PushMessage = await sub.waitForPush('downlink-closed');
      expect(closed.data).toMatchObject({ reason: 'failed' });
      expect(server.stats().downlinks).toBe(0);
    } finally {
      await up.pc.close();
    }
  });

  it('an unpublish that arrives while a publish is negotiated leaves no uplink behind: that publish is refused (MEDIA_ERROR), the next one works', async () => {
    const pub = await join('racer', '503');
    const first = await uplink('H264');
    const second = await uplink('H264');
    const before = server.stats().uplinks; // the other tests' publishers stay in their rooms
    try {
      const published = pub.request('publish', { sdp: first.offer });
      const unpublished = await pub.request('unpublish', {});
      expect(unpublished.code).toBe(0);
      const refused = await published;
      expect(refused.code).toBe(SERVER_CODE.MEDIA_ERROR);
      expect(refused.message).toMatch(/publish cancelled/);
      expect(server.stats().uplinks).toBe(before);
      expect((await pub.request('publish', { sdp: second.offer })).code).toBe(0);
      expect(server.stats().uplinks).toBe(before + 1);
    } finally {
      await first.pc.close();
      await second.pc.close();
    }
  });

  it('an anchor who switches to audience while its publish is negotiated: that publish is refused (PERMISSION_DENIED) and leaves no uplink behind', async () => {
    const star = await joined(server, APP, 'star', '504', { protocolVersion: PROTOCOL_VERSION, trtcScene: 2 });
    clients.push(star);
    const up = await uplink('H264');
    const before = server.stats().uplinks;
    try {
      const published = star.request('publish', { sdp: up.offer });
      expect((await star.request('switch-role', { role: 21 })).code).toBe(0);
      const refused = await published;
      expect(refused.code).toBe(SERVER_CODE.PERMISSION_DENIED);
      expect(server.stats().uplinks).toBe(before);
    } finally {
      await up.pc.close();
    }
  });

  it(`a protocol version the server does not speak is refused with PROTOCOL_UNSUPPORTED naming both versions; ${PROTOCOL_VERSION} and an absent version (1) are accepted`, async () => {
    const future = await WsClient.connect(server);
    clients.push(future);
    const refused = await future.request('join', await joinData(APP, 'future', '503', { protocolVersion: 99 }));
    expect(refused.code).toBe(SERVER_CODE.PROTOCOL_UNSUPPORTED);
    expect(refused.message).toContain('protocol version 99');
    expect(refused.message).toContain(`versions ${SUPPORTED_PROTOCOL_VERSIONS.min} to ${SUPPORTED_PROTOCOL_VERSIONS.max}`);
    // The connection goes on: the same client may join with a version the server speaks.
    expect((await future.request('join', await joinData(APP, 'future', '503', { protocolVersion: PROTOCOL_VERSION }))).code).toBe(0);
    const legacy = await WsClient.connect(server);
    clients.push(legacy);
    expect((await legacy.request('join', await joinData(APP, 'legacy', '503'))).code).toBe(0);
  });
});
