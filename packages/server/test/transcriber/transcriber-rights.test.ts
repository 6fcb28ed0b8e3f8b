import { FLAG, SERVER_CODE, TRANSCRIBER_CODE } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/context.js';
import { joinData } from '../support/clients.js';
import { waitFor } from '../support/engine-peers.js';
import { sessionClient } from '../support/session-client.js';
import { closeEmbeddedContext, embeddedContext } from '../support/test-context.js';
import type { Recognizer } from '../../src/transcriber/recognizer.js';

/*
 * Transcriber robots and privileges (issue 38.9) and quotas (38.10). The recognizer is a stand-in (the real one is
 * PocketSphinx, tested in recognizer.test.ts): it is ready at once and "hears" one sentence per speaker; the rest
 * is real — signalling, the robot, the engine's RTP feed and the GStreamer audio decoder of each speaker.
 */

const apps = [1400000396, 1400000397, 1400000398].map((sdkAppId, i) => ({ sdkAppId, secretKey: `transcriber-rights-${i}-secret-key-01234` }));
const APP = apps[0]!;
const LIVE = { trtcScene: 2, trtcRole: 20 };

/** A recognizer that reports one final sentence shortly after each stream opens. */
const recognizer: Recognizer = {
  name: 'stand-in',
  language: () => 'en',
  open: (_language, listener) => {
    const timer = setTimeout(() => listener.onResult({ type: 'final', text: 'hello', start: 0, end: 0.5 }), 300);
    return { ready: Promise.resolve(), write: () => undefined, end: () => { clearTimeout(timer); return Promise.resolve(); }, close: () => clearTimeout(timer) };
  },
};

type Client = ReturnType<typeof sessionClient>;

describe('transcriber robots: privileges and quotas', () => {
  let ctx: ServerContext;

  beforeAll(() => {
    ctx = embeddedContext({ apps, limits: { transcribersPerApp: 1, transcribersPerNode: 2 } }, { recognizer });
  });
  afterAll(async () => {
    await ctx.transcribers.close();
    await closeEmbeddedContext(ctx);
  });

  const key = (app: typeof APP, userId: string, roomId: number, privilegeMap: number) =>
    genPrivateMapKey({ sdkAppId: app.sdkAppId, secretKey: app.secretKey, userId, roomId, privilegeMap, expire: 600 });

  /** A live anchor of `roomId` (with a privateMapKey of `privileges` when given) whose flags say it sends audio. */
  async function speaker(app: typeof APP, userId: string, roomId: number, privileges?: number): Promise<Client> {
    const c = sessionClient(ctx);
    const privateMapKey = privileges === undefined ? undefined : await key(app, userId, roomId, privileges);
    const reply = await c.send('join', await joinData(app, userId, String(roomId), { ...LIVE, ...(privateMapKey ? { privateMapKey } : {}) }));
    expect(reply.code, reply.message).toBe(0);
    expect((await c.send('mute-flag', { flag: FLAG.AUDIO })).code).toBe(0);
    return c;
  }

  const speakersOf = (roomId: number) => ctx.transcribers.list(`${APP.sdkAppId}:i:${roomId}`).flatMap((robot) => robot.speakers.map((s) => s.userId)).sort();

  it('38.9 a robot transcribes only what its starter may hear of what each speaker may send; its sentences reach only users who may hear', async () => {
    const owner = await speaker(APP, 'owner', 4101);
    // A user who may send audio but not receive it: transcribed, but gets no sentences, and may not start a robot.
    const deaf = await speaker(APP, 'deaf', 4101, PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO);
    // A user whose flags say audio but whose new privateMapKey (switch-role) no longer lets it send audio.
    const muted = await speaker(APP, 'muted', 4101);
    expect((await muted.send('switch-role', { role: 20, privateMapKey: await key(APP, 'muted', 4101, PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO) })).code).toBe(0);

    expect(await deaf.send('transcriber-start', { sourceLanguage: 'en' })).toMatchObject({ code: SERVER_CODE.PRIVILEGE_DENIED });
    expect((await owner.send('transcriber-start', { sourceLanguage: 'en' })).code).toBe(0);
    await waitFor(() => owner.pushes('transcriber-message').length >= 2, 10_000, 'the sentences of both speakers at the owner');
    expect(speakersOf(4101)).toEqual(['deaf', 'owner']);
    expect(owner.pushes('transcriber-message').map((m) => (m.data as { speakerUserId: string }).speakerUserId).sort()).toEqual(['deaf', 'owner']);
    expect(deaf.pushes('transcriber-message')).toEqual([]);
    expect(muted.pushes('transcriber-message').length).toBe(2);
    expect(deaf.pushes('transcriber-state').length).toBe(1); // that a robot runs is no secret: only what it hears is
    expect((await owner.send('transcriber-stop', { transcriberRobotId: 'transcriber_4101_robot_owner' })).code).toBe(0);
  });

  it('38.10 robots are bounded per app and per node: over either, QUOTA_EXCEEDED, counted in /metrics', async () => {
    const start = async (i: number, roomId: number) => {
      const c = sessionClient(ctx);
      expect((await c.send('join', await joinData(apps[i]!, `u${i}`, String(roomId)))).code).toBe(0);
      return c.send('transcriber-start', { sourceLanguage: 'en' });
    };
    expect((await start(0, 4201)).code).toBe(0);
    // App 0 runs its one robot: another room of it is refused.
    expect(await start(0, 4202)).toMatchObject({ code: TRANSCRIBER_CODE.QUOTA_EXCEEDED, message: expect.stringMatching(/transcribersPerApp/) });
    expect((await start(1, 4201)).code).toBe(0);
    // Two robots run on the node: a third app is refused.
    expect(await start(2, 4201)).toMatchObject({ code: TRANSCRIBER_CODE.QUOTA_EXCEEDED, message: expect.stringMatching(/transcribersPerNode/) });
    const text = await ctx.metrics.text();
    expect(text).toContain('conclave_transcriber_quota_refusals_total{scope="app"} 1');
    expect(text).toContain('conclave_transcriber_quota_refusals_total{scope="node"} 1');
  });
});
