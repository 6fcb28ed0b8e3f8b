import { ROLE_CODE, SCENE_CODE } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, type AppConfig } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import type { RtpForward, RtpForwardTargets } from '../../src/engine/media-engine.js';
import { createLogger } from '../../src/log/logger.js';
import { joinData } from '../support/clients.js';
import { waitFor } from '../support/engine-peers.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { sessionClient } from '../support/session-client.js';

/*
 * Issue 38 item 9 on the signalling path: a CDN mix takes from each source only what the source may send
 * and the user who started it may receive (auth/privileges.ts allowedWants), followed live as privileges
 * change. The job is real (a GStreamer mix, played over WHEP only); the engine records what it is asked to
 * forward (no media flows: the forwarding itself is the engines' own tests').
 */

const APP: AppConfig = { sdkAppId: 1400320001, secretKey: 'cdn-privileges-app-secret-0123456789' };
const ROOM = 3201;
const { ENTER_ROOM, SEND_AUDIO, SEND_VIDEO, RECV_AUDIO, RECV_VIDEO, RECV_SUB_VIDEO } = PRIVILEGE;

/** A recording engine that also records RTP forwarding to jobs: participant → what is forwarded now. */
class ForwardingEngine extends RecordingEngine {
  readonly forwarding = new Map<string, string>();

  forwardRtp(participantId: string, targets: RtpForwardTargets): RtpForward {
    const what = `${targets.videoPort !== undefined ? 'v' : '-'}${targets.audioPort !== undefined ? 'a' : '-'}`;
    this.forwarding.set(participantId, what);
    return { requestKeyframe: () => undefined, stop: () => { if (this.forwarding.get(participantId) === what) this.forwarding.delete(participantId); } };
  }
}

describe('CDN mixes and privilege bits', () => {
  let ctx: ServerContext;
  let engine: ForwardingEngine;

  beforeAll(() => {
    engine = new ForwardingEngine();
    const config = configFromEnv({}, { apps: [APP], logLevel: 'silent', iceAddress: '127.0.0.1', storage: { path: ':memory:' } });
    ctx = createContext(config, { engine, logger: createLogger('silent') });
  });
  afterAll(async () => {
    await ctx.jobs.close();
    closeContext(ctx);
  });

  it('38.9 a mix forwards from each source only what it may send and the caller may receive (its own stream: what it may send), and follows a new privateMapKey', async () => {
    const key = (userId: string, privilegeMap: number) => genPrivateMapKey({ ...APP, userId, roomId: ROOM, privilegeMap });
    const join = async (userId: string, privilegeMap?: number) => {
      const c = sessionClient(ctx);
      const extra = { trtcScene: SCENE_CODE.live, trtcRole: ROLE_CODE.anchor, ...(privilegeMap === undefined ? {} : { privateMapKey: await key(userId, privilegeMap) }) };
      expect((await c.send('join', await joinData(APP, userId, String(ROOM), extra))).code).toBe(0);
      return c;
    };
    // alice may send, and may hear but not see others; bob has every bit; carol may send video only.
    const alice = await join('alice', ENTER_ROOM | SEND_AUDIO | SEND_VIDEO | RECV_AUDIO);
    await join('bob');
    await join('carol', ENTER_ROOM | SEND_VIDEO | RECV_AUDIO | RECV_VIDEO | RECV_SUB_VIDEO);
    const ids = Object.fromEntries([...[...ctx.rooms.rooms()][0].participants()].map((p) => [p.userId, p.id]));
    const rect = (userId: string, x: number) => ({ userId, streamType: 'main', fillMode: 0, width: 40, height: 90, locationX: x, locationY: 0, zOrder: 1 });
    const reply = await alice.send('cdn-start', {
      publishMode: 'PublishMixStreamToCDN', streamId: 'privileges', encoding: { videoWidth: 160, videoHeight: 90, videoFramerate: 5, videoBitrate: 100 },
      mix: { audioMixUserList: ['alice', 'bob', 'carol'], videoLayoutList: [rect('alice', 0), rect('bob', 40), rect('carol', 80)] },
    });
    expect(reply.code).toBe(0);
    const forwarded = () => Object.fromEntries(Object.entries(ids).map(([userId, id]) => [userId, engine.forwarding.get(id) ?? 'nothing']));
    // Her own camera and microphone; bob's sound but not his picture; nothing of carol (no picture for alice, no sound from carol).
    await waitFor(() => forwarded().alice === 'va', 5000, 'alice forwarded');
    expect(forwarded()).toEqual({ alice: 'va', bob: '-a', carol: 'nothing' });

    // A new privateMapKey that lets alice see: bob's and carol's pictures join the mix, without a new job.
    expect((await alice.send('switch-role', { role: ROLE_CODE.anchor, privateMapKey: await key('alice', ENTER_ROOM | SEND_AUDIO | SEND_VIDEO | RECV_AUDIO | RECV_VIDEO) })).code).toBe(0);
    await waitFor(() => forwarded().bob === 'va', 5000, 'bob re-bound with video');
    expect(forwarded()).toEqual({ alice: 'va', bob: 'va', carol: 'v-' });
    expect(ctx.jobs.list(APP.sdkAppId)).toHaveLength(1);
  }, 30_000);
});
