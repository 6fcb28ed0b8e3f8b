import { deflateSync, inflateSync } from 'node:zlib';
import { FLAG, SERVER_CODE, type PushMessage } from '@conclave/protocol';
import { genPrivateMapKey, genPrivateMapKeyWithStringRoomID, genUserSig, PRIVILEGE } from '@conclave/usersig';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, type AppConfig } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { createLogger } from '../../src/log/logger.js';
import { joinData as clientJoinData } from '../support/clients.js';
import { sessionClient } from '../support/session-client.js';

const APP: AppConfig = { sdkAppId: 1400000111, secretKey: 'auth-test-secret-key-0123456789ab' };
const OTHER_APP: AppConfig = { sdkAppId: 1400000222, secretKey: 'other-auth-test-secret-key-98765' };
const STRICT_APP: AppConfig = { sdkAppId: 1400000333, secretKey: 'strict-app-secret-key-0123456789', requirePrivateMapKey: true };
const UNPAID_APP: AppConfig = { sdkAppId: 1400000444, secretKey: 'unpaid-app-secret-key-0123456789', billing: 'no-package' };
const BROKE_APP: AppConfig = { sdkAppId: 1400000555, secretKey: 'broke-app-secret-key-01234567890', billing: 'out-of-credit' };

const client = sessionClient;

/** A join request's data (app last, defaulting to this file's app). */
const joinData = (userId: string, roomId: string, app: { sdkAppId: number; secretKey: string } = APP, extra: Record<string, unknown> = {}) => clientJoinData(app, userId, roomId, extra);

const key = (userId: string, roomId: number, privilegeMap: number, app: AppConfig = APP, extra: { expire?: number; now?: number } = {}) =>
  genPrivateMapKey({ sdkAppId: app.sdkAppId, secretKey: app.secretKey, userId, roomId, privilegeMap, ...extra });

describe('join authentication and privateMapKey permissions', () => {
  let ctx: ServerContext;
  let engine: RecordingEngine;
  const setup = () => {
    engine = new RecordingEngine();
    // Many refused joins on one connection and address, as no client makes them: the failed-join limits (38.3) raised.
    const config = configFromEnv({}, { apps: [APP, OTHER_APP, STRICT_APP, UNPAID_APP, BROKE_APP], logLevel: 'silent', storage: { path: ':memory:' }, limits: { failedJoinsPerConnection: 100, failedJoinsPerMinute: 1000 } });
    ctx = createContext(config, { engine, logger: createLogger('silent') });
  };
  afterEach(() => closeContext(ctx));

  it('refuses forged, expired, wrong-app and unknown-app userSigs, each with its code', async () => {
    setup();
    const c = client(ctx);
    const base = await joinData('alice', '100');
    const codeOf = async (patch: Record<string, unknown>) => (await c.send('join', { ...base, ...patch })).code;
    // Forged: random text, a sig made with a guessed key, and a real sig whose signature was altered.
    expect(await codeOf({ userSig: 'eJyrVkrOz-not-a-real-sig' })).toBe(SERVER_CODE.USERSIG_MALFORMED);
    expect(await codeOf({ userSig: await genUserSig({ ...APP, secretKey: 'guessed-secret-key-000000000000', userId: 'alice' }) })).toBe(SERVER_CODE.USERSIG_WRONG_KEY);
    expect(await codeOf({ userSig: tamper(await genUserSig({ ...APP, userId: 'alice' })) })).toBe(SERVER_CODE.USERSIG_WRONG_KEY);
    // Expired.
    expect(await codeOf({ userSig: await genUserSig({ ...APP, userId: 'alice', now: 1_000_000, expire: 60 }) })).toBe(SERVER_CODE.USERSIG_EXPIRED);
    // Wrong app: a valid sig of another configured app, and an app this server does not know.
    expect(await codeOf({ userSig: await genUserSig({ ...OTHER_APP, userId: 'alice' }) })).toBe(SERVER_CODE.USERSIG_MISMATCH);
    expect(await codeOf({ sdkAppId: 1400999999 })).toBe(SERVER_CODE.UNKNOWN_APP);
    // Nobody got in.
    expect(ctx.rooms.size).toBe(0);
    expect((await c.send('join', base)).code).toBe(0);
  });

  it('refuses a privateMapKey bound to another room, another user, another app, expired or without the enter bit', async () => {
    setup();
    const c = client(ctx);
    const all = PRIVILEGE.ALL;
    const join = async (privateMapKey: string, roomId = '200', extra: Record<string, unknown> = {}) =>
      c.send('join', await joinData('bob', roomId, APP, { privateMapKey, ...extra }));
    const wrongRoom = await join(await key('bob', 201, all));
    expect(wrongRoom.code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM);
    expect(wrongRoom.message).toMatch(/roomId '201', not roomId '200'/);
    // A string-room key does not open the integer room with the same digits, nor the other way round.
    const strKey = await genPrivateMapKeyWithStringRoomID({ ...APP, userId: 'bob', strRoomId: '200', privilegeMap: all });
    expect((await join(strKey)).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM);
    expect((await join(await key('bob', 200, all), '200', { useStringRoomId: true })).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM);
    expect((await join(await key('carol', 200, all))).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_INVALID);
    expect((await join(await key('bob', 200, all, OTHER_APP))).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_INVALID);
    expect((await join(await key('bob', 200, all, { ...APP, secretKey: 'forged-secret-key-0000000000000' }))).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_INVALID);
    expect((await join('garbage')).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_INVALID);
    expect((await join(await genUserSig({ ...APP, userId: 'bob' }))).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_INVALID); // a plain userSig
    expect((await join(await key('bob', 200, all, APP, { now: 1_000_000, expire: 60 }))).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_EXPIRED);
    const noEnter = await join(await key('bob', 200, all & ~PRIVILEGE.ENTER_ROOM));
    expect(noEnter.code).toBe(SERVER_CODE.PRIVILEGE_DENIED);
    expect(ctx.rooms.size).toBe(0);
    expect((await join(await key('bob', 200, PRIVILEGE.ENTER_ROOM))).code).toBe(0);
    // The string room, with a key for it.
    const s = client(ctx);
    expect((await s.send('join', await joinData('bob', 'lobby', APP, { useStringRoomId: true, privateMapKey: await genPrivateMapKeyWithStringRoomID({ ...APP, userId: 'bob', strRoomId: 'lobby', privilegeMap: all }) }))).code).toBe(0);
  });

  it('an app that requires a privateMapKey refuses joins without one', async () => {
    setup();
    const c = client(ctx);
    expect((await c.send('join', await joinData('dan', '300', STRICT_APP))).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_REQUIRED);
    const ok = await c.send('join', await joinData('dan', '300', STRICT_APP, { privateMapKey: await key('dan', 300, PRIVILEGE.ALL, STRICT_APP) }));
    expect(ok.code).toBe(0);
  });

  it('a privateMapKey without a send bit cannot publish; send bits gate each kind of stream', async () => {
    setup();
    const viewer = client(ctx);
    expect((await viewer.send('join', await joinData('viewer', '400', APP, { privateMapKey: await key('viewer', 400, PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO) }))).code).toBe(0);
    const publish = await viewer.send('publish', { sdp: 'v=0' });
    expect(publish.code).toBe(SERVER_CODE.PRIVILEGE_DENIED);
    expect(publish.message).toMatch(/no send privilege/);
    expect((await viewer.send('mute-flag', { flag: FLAG.AUDIO })).code).toBe(SERVER_CODE.PRIVILEGE_DENIED);
    expect(engine.published).toEqual([]);

    const talker = client(ctx);
    expect((await talker.send('join', await joinData('talker', '400', APP, { privateMapKey: await key('talker', 400, PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO) }))).code).toBe(0);
    expect((await talker.send('publish', { sdp: 'v=0' })).code).toBe(0);
    expect((await talker.send('mute-flag', { flag: FLAG.AUDIO })).code).toBe(0);
    const video = await talker.send('mute-flag', { flag: FLAG.AUDIO | FLAG.VIDEO });
    expect(video.code).toBe(SERVER_CODE.PRIVILEGE_DENIED);
    expect(video.message).toMatch(/sending video/);
    expect((await talker.send('mute-flag', { flag: FLAG.AUDIO | FLAG.AUX })).code).toBe(SERVER_CODE.PRIVILEGE_DENIED);
    // The viewer saw the audio flag only.
    expect(viewer.out.filter((m) => 'push' in m && m.push === 'publish-list').map((m) => (m as PushMessage<'publish-list'>).data.userList[0].flag)).toEqual([FLAG.AUDIO]);

    // What flows is only what the source may send and the subscriber may receive.
    expect((await viewer.send('subscribe', { srcUserId: 'talker', audio: true, bigVideo: true, smallVideo: true, auxVideo: true })).code).toBe(0);
    expect(engine.subscriptions.at(-1)!.wants).toEqual({ srcUserId: 'talker', audio: true, bigVideo: false, smallVideo: false, auxVideo: false });

    // A new privateMapKey on switch-role replaces the privileges (live scene).
    const anchor = client(ctx);
    const liveKey = (bits: number) => key('host', 401, bits);
    expect((await anchor.send('join', await joinData('host', '401', APP, { trtcScene: 2, trtcRole: 21, privateMapKey: await liveKey(PRIVILEGE.ENTER_ROOM) }))).code).toBe(0);
    expect((await anchor.send('switch-role', { role: 20 })).code).toBe(0);
    expect((await anchor.send('publish', { sdp: 'v=0' })).code).toBe(SERVER_CODE.PRIVILEGE_DENIED);
    expect((await anchor.send('switch-role', { role: 20, privateMapKey: await key('host', 999, PRIVILEGE.ALL) })).code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM);
    expect((await anchor.send('switch-role', { role: 20, privateMapKey: await liveKey(PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_VIDEO) })).code).toBe(0);
    expect((await anchor.send('publish', { sdp: 'v=0' })).code).toBe(0);
  });

  it("refuses an app without a package (5401) or out of credit (-100013): docs/behaviour.md §8's codes", async () => {
    setup();
    const c = client(ctx);
    const unpaid = await c.send('join', await joinData('erin', '500', UNPAID_APP));
    expect(unpaid).toMatchObject({ code: SERVER_CODE.NEED_PACKAGE, message: 'need to buy packages' });
    expect(SERVER_CODE.NEED_PACKAGE).toBe(5401);
    const broke = await c.send('join', await joinData('erin', '500', BROKE_APP));
    expect(broke.code).toBe(-100013);
    expect(broke.message).toMatch(/out of credit/);
    // A bad sig is still a sig error, whatever the billing state.
    expect((await c.send('join', { ...(await joinData('erin', '500', UNPAID_APP)), userSig: 'bad' })).code).toBe(SERVER_CODE.USERSIG_MALFORMED);
  });
});

/** A real sig whose signature was replaced (the rest of the document unchanged). */
function tamper(sig: string): string {
  const doc = JSON.parse(inflateSync(Buffer.from(sig.replace(/\*/g, '+').replace(/-/g, '/').replace(/_/g, '='), 'base64')).toString()) as Record<string, unknown>;
  doc['TLS.sig'] = Buffer.from('x'.repeat(32)).toString('base64');
  return deflateSync(JSON.stringify(doc)).toString('base64').replace(/\+/g, '*').replace(/\//g, '-').replace(/=/g, '_');
}
