import { genUserSig } from '@conclave/usersig';
import { SERVER_CODE, type ReplyMessage } from '@conclave/protocol';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { EmbeddedEngine } from '../../src/engine/embedded/embedded-engine.js';
import { createLogger } from '../../src/log/logger.js';
import { RoomRegistry } from '../../src/room/room.js';
import { joinData as clientJoinData } from '../support/clients.js';
import { sessionClient } from '../support/session-client.js';

const APP = { sdkAppId: 1400000123, secretKey: 'session-test-secret-key-0123456789' };
const OTHER_APP = { sdkAppId: 1400000456, secretKey: 'another-apps-secret-key-987654321' };

function context(logger = createLogger('silent')): ServerContext {
  const config = configFromEnv({}, { apps: [APP, OTHER_APP], logLevel: 'silent', storage: { path: ':memory:' } });
  return createContext(config, { engine: new EmbeddedEngine({ iceAddress: '127.0.0.1' }), logger });
}

/** A session with a recording transport. */
const client = sessionClient;

/** A join request's data (app last, defaulting to this file's app). */
const joinData = (userId: string, roomId: string, app: { sdkAppId: number; secretKey: string } = APP, extra: Record<string, unknown> = {}) => clientJoinData(app, userId, roomId, extra);

describe('SignalSession', () => {
  let ctx: ServerContext;
  afterEach(async () => {
    await ctx?.engine.close();
    if (ctx) closeContext(ctx);
  });

  it('answers malformed messages with a code and keeps the connection', async () => {
    ctx = context();
    const c = client(ctx);
    await c.session.handle('not json');
    await c.session.handle('[1,2]');
    await c.session.handle(JSON.stringify({ id: 'x', cmd: 'join' }));
    await c.session.handle(JSON.stringify({ id: 7, cmd: 'explode', data: {} }));
    expect(c.out.map((m) => (m as ReplyMessage).code)).toEqual([SERVER_CODE.BAD_REQUEST, SERVER_CODE.BAD_REQUEST, SERVER_CODE.BAD_REQUEST, SERVER_CODE.UNKNOWN_COMMAND]);
    // A request with a valid id gets its reply under that id, even for an unknown command.
    expect((c.out[3] as ReplyMessage).id).toBe(7);
    expect((c.out[3] as ReplyMessage).message).toMatch(/unknown command/);
    expect((await c.send('heartbeat', {})).code).toBe(0);
    expect(c.closed).toBeUndefined();
  });

  it('logs unparsable and invalid messages with the reason but never their content, the first few per connection', async () => {
    const lines: { msg: string; reason?: string; cmd?: string }[] = [];
    ctx = context(pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) }));
    const c = client(ctx);
    await c.session.handle('{"id":1,"cmd":"join","data":{"userSig":"SECRET-SIG"');
    expect((await c.send('join', { ...(await joinData('ann', '5')), userSig: 'SECRET-SIG', privateMapKey: 'SECRET-KEY', sdkAppId: 'x' })).code).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect(lines.map((l) => [l.msg, l.cmd, l.reason])).toEqual([
      ['invalid signalling message', undefined, 'message is not valid JSON'],
      ['invalid signalling message', 'join', expect.stringMatching(/^join: sdkAppId: /)],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/SECRET/);
    for (let i = 0; i < 10; i++) await c.session.handle('nonsense');
    expect(lines).toHaveLength(5);
    expect(lines[4].msg).toMatch(/further invalid messages of this connection are not logged/);
  });

  it('join: userDefineRecordId is checked (docs/behaviour.md §5); switch-role: latencyLevel 1 to 5', async () => {
    ctx = context();
    const c = client(ctx);
    const badRecord = await c.send('join', await joinData('rec', '6', APP, { userDefineRecordId: 'no spaces allowed' }));
    expect([badRecord.code, badRecord.message]).toEqual([SERVER_CODE.INVALID_PARAMETER, expect.stringMatching(/userDefineRecordId/)]);
    expect((await c.send('join', await joinData('rec', '6', APP, { userDefineRecordId: 'rec_2026-11', trtcScene: 2 }))).code).toBe(0);
    const badLevel = await c.send('switch-role', { role: 21, latencyLevel: 9 });
    expect([badLevel.code, badLevel.message]).toEqual([SERVER_CODE.INVALID_PARAMETER, expect.stringMatching(/latencyLevel/)]);
    expect((await c.send('switch-role', { role: 21, latencyLevel: 5 })).code).toBe(0);
  });

  it('refuses commands before join and data of the wrong shape, naming the field', async () => {
    ctx = context();
    const c = client(ctx);
    expect((await c.send('publish', { sdp: 'v=0' })).code).toBe(SERVER_CODE.NOT_JOINED);
    expect((await c.send('subscribe', { srcUserId: 'x', audio: true, bigVideo: true, smallVideo: false, auxVideo: false })).code).toBe(SERVER_CODE.NOT_JOINED);
    const bad = await c.send('join', { ...(await joinData('u1', '1')), sdkAppId: 'abc' });
    expect(bad.code).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect(bad.message).toMatch(/sdkAppId/);
    const badRoom = await c.send('join', await joinData('u1', '0'));
    expect(badRoom.code).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect(badRoom.message).toMatch(/\[1, 4294967294\]/);
  });

  it('refuses oversized messages and excessive request rates with a code', async () => {
    ctx = context();
    const c = client(ctx);
    await c.session.handle('x'.repeat(70 * 1024));
    expect((c.out[0] as ReplyMessage).code).toBe(SERVER_CODE.MESSAGE_TOO_LARGE);
    const codes: number[] = [];
    for (let i = 0; i < 60; i++) codes.push((await c.send('heartbeat', {})).code);
    expect(codes.filter((code) => code === SERVER_CODE.RATE_LIMITED).length).toBeGreaterThan(0);
    expect(codes[0]).toBe(0);
  });

  it('tells apart wrong key, wrong user, expired and unknown app', async () => {
    ctx = context();
    const c = client(ctx);
    const base = await joinData('u1', '5');
    const wrongKey = await c.send('join', { ...base, userSig: await genUserSig({ ...APP, secretKey: 'x'.repeat(32), userId: 'u1' }) });
    expect(wrongKey.code).toBe(SERVER_CODE.USERSIG_WRONG_KEY);
    const wrongUser = await c.send('join', { ...base, userSig: await genUserSig({ ...APP, userId: 'u2' }) });
    expect(wrongUser.code).toBe(SERVER_CODE.USERSIG_MISMATCH);
    const expired = await c.send('join', { ...base, userSig: await genUserSig({ ...APP, userId: 'u1', now: 1000, expire: 10 }) });
    expect(expired.code).toBe(SERVER_CODE.USERSIG_EXPIRED);
    const otherApp = await c.send('join', { ...base, sdkAppId: 999 });
    expect(otherApp.code).toBe(SERVER_CODE.UNKNOWN_APP);
    // A sig of another app is refused for this app.
    const crossApp = await c.send('join', { ...base, userSig: await genUserSig({ ...OTHER_APP, userId: 'u1' }) });
    expect(crossApp.code).toBe(SERVER_CODE.USERSIG_MISMATCH);
  });

  it('keeps rooms of different apps and different ids apart', async () => {
    ctx = context();
    const a = client(ctx);
    const b = client(ctx);
    const otherApp = client(ctx);
    const otherRoom = client(ctx);
    expect((await a.send('join', await joinData('a', '10'))).code).toBe(0);
    expect((await otherApp.send('join', await joinData('x', '10', OTHER_APP))).code).toBe(0);
    expect((await otherRoom.send('join', await joinData('y', '10', APP, { useStringRoomId: true }))).code).toBe(0);
    const joined = await b.send('join', await joinData('b', '10'));
    expect(joined.code).toBe(0);
    expect((joined.data as { userList: { userId: string }[] }).userList.map((u) => u.userId)).toEqual(['a']);
    expect(a.pushes('peer-join').map((p) => (p.data as { userId: string }).userId)).toEqual(['b']);
    expect(otherApp.pushes('peer-join')).toEqual([]);
    expect(otherRoom.pushes('peer-join')).toEqual([]);
    // Subscribing to a user of another app's room fails as if the user did not exist.
    const cross = await otherApp.send('subscribe', { srcUserId: 'a', audio: true, bigVideo: true, smallVideo: false, auxVideo: false });
    expect(cross.code).toBe(SERVER_CODE.STREAM_NOT_EXIST);
    expect((await b.send('mute-flag', { flag: 9 })).code).toBe(0);
    expect(a.pushes('publish-list')).toHaveLength(1);
    expect(otherApp.pushes('publish-list')).toEqual([]);
    b.session.closed('normal');
    expect(a.pushes('peer-leave').map((p) => p.data)).toEqual([{ userId: 'b', tinyId: expect.any(String), reason: 'normal' }]);
  });

  it('refuses a duplicate join and replaces an earlier session of the same user', async () => {
    ctx = context();
    const first = client(ctx);
    const watcher = client(ctx);
    expect((await watcher.send('join', await joinData('w', '20'))).code).toBe(0);
    expect((await first.send('join', await joinData('u', '20'))).code).toBe(0);
    expect((await first.send('join', await joinData('u', '20'))).code).toBe(SERVER_CODE.ALREADY_JOINED);
    const second = client(ctx);
    expect((await second.send('join', await joinData('u', '20'))).code).toBe(0);
    expect(first.pushes('banned').map((p) => p.data)).toEqual([{ reason: 'kick', message: expect.any(String) }]);
    expect(first.closed).toBe('kick');
    expect(await first.send('heartbeat', {})).toBeUndefined();
    expect(watcher.pushes('peer-join').map((p) => (p.data as { userId: string }).userId)).toEqual(['u', 'u']);
  });

  it('keeps a dropped session for the grace period: a resume within it is silent, after it the others get peer-leave', async () => {
    ctx = context();
    ctx.config.sessionGraceMs = 200;
    const watcher = client(ctx);
    const first = client(ctx);
    expect((await watcher.send('join', await joinData('w', '40'))).code).toBe(0);
    const joined = await first.send('join', await joinData('u', '40'));
    const { sessionToken, tinyId } = joined.data as { sessionToken: string; tinyId: string };
    expect((await first.send('mute-flag', { flag: 9 })).code).toBe(0);
    first.session.closed('timeout');
    // Resume on a new connection with the token: same tinyId, no leave or join seen by the others.
    const second = client(ctx);
    const resumed = await second.send('join', { ...(await joinData('u', '40')), resumeToken: sessionToken });
    expect(resumed.code).toBe(0);
    expect(resumed.data).toMatchObject({ resumed: true, tinyId, sessionToken, userList: [{ userId: 'w' }] });
    // The resume stopped the grace timer (no fixed wait for a leave that must not come): the session is attached.
    expect(ctx.rooms.find(RoomRegistry.key(APP.sdkAppId, '40', false))?.get('u')?.detached).toBe(false);
    expect(watcher.pushes('peer-leave')).toEqual([]);
    expect(watcher.pushes('peer-join')).toHaveLength(1);
    expect((await second.send('heartbeat', {})).code).toBe(0);
    // A wrong token is a fresh join that replaces the session.
    const third = client(ctx);
    expect((await third.send('join', { ...(await joinData('u', '40')), resumeToken: 'forged' })).data).toMatchObject({ resumed: false });
    expect(second.pushes('banned')).toHaveLength(1);
    // A drop with no resume: after the grace period the others see the user leave.
    third.session.closed('timeout');
    await expect.poll(() => watcher.pushes('peer-leave').length, { timeout: 2000 }).toBe(2);
    expect(watcher.pushes('peer-leave').at(-1)!.data).toMatchObject({ userId: 'u', reason: 'timeout' });
    // By now the first drop's grace period (as long as the third's) is long over: the resume cancelled it, so
    // the only leaves are the replaced session's kick and the third's time-out.
    expect(watcher.pushes('peer-leave').map((p) => (p.data as { reason: string }).reason)).toEqual(['kick', 'timeout']);
  });

  it('lets an audience in live receive but not publish', async () => {
    ctx = context();
    const c = client(ctx);
    expect((await c.send('join', await joinData('aud', '30', APP, { trtcScene: 2, trtcRole: 21 }))).code).toBe(0);
    expect((await c.send('publish', { sdp: 'v=0' })).code).toBe(SERVER_CODE.PERMISSION_DENIED);
    expect((await c.send('mute-flag', { flag: 8 })).code).toBe(SERVER_CODE.PERMISSION_DENIED);
    expect((await c.send('switch-role', { role: 20 })).code).toBe(0);
    expect((await c.send('mute-flag', { flag: 8 })).code).toBe(0);
  });
});
