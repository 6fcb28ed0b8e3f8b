/**
 * Engine handles at the signalling layer (docs/architecture.md "The media-engine contract"): a participant's
 * subscriptions are the engine's handles, so the engine's cascades reach the signalling record without re-checks,
 * a publish that completes after its user left is refused from its closed handle, and a room's end reaches the
 * engine (endRoom).
 */
import { SERVER_CODE } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, type AppConfig } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { createLogger } from '../../src/log/logger.js';
import { RoomRegistry } from '../../src/room/room.js';
import { joinData } from '../support/clients.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { sessionClient } from '../support/session-client.js';

const APP: AppConfig = { sdkAppId: 1400380041, secretKey: 'engine-handles-test-secret-012345' };
const ALL = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };

/** A RecordingEngine whose publishes can be held while "negotiating", and which records the rooms it is told ended. */
class HandleEngine extends RecordingEngine {
  readonly ended: string[] = [];
  hold: Promise<void> | undefined;

  protected override negotiating(): Promise<void> {
    return this.hold ?? Promise.resolve();
  }

  override async endRoom(roomId: string): Promise<void> {
    this.ended.push(roomId);
    await super.endRoom(roomId);
  }
}

describe('41 handles at the signalling layer', () => {
  let ctx: ServerContext;
  let engine: HandleEngine;
  beforeAll(() => {
    engine = new HandleEngine();
    ctx = createContext(configFromEnv({}, { apps: [APP], logLevel: 'silent', storage: { path: ':memory:' } }), { engine, logger: createLogger('silent') });
  });
  afterAll(() => closeContext(ctx));

  const join = async (userId: string, roomId: string) => {
    const client = sessionClient(ctx);
    expect((await client.send('join', await joinData(APP, userId, roomId))).code).toBe(0);
    return client;
  };
  const record = (roomId: string, userId: string) => ctx.rooms.find(RoomRegistry.key(APP.sdkAppId, roomId, false))?.get(userId);

  it("41 handles: a participant's leave closes its subscribers' subscriptions to it, which leave their records; the room's end reaches the engine", async () => {
    const source = await join('source', '4101');
    const fan = await join('fan', '4101');
    expect((await fan.send('subscribe', { srcUserId: 'source', ...ALL })).code).toBe(0);
    const fanRecord = record('4101', 'fan')!;
    const handle = fanRecord.subscriptions.get('source')!;
    expect(handle.closed).toBe(false);
    expect((await source.send('leave', {})).code).toBe(0);
    expect(handle.closeReason).toBe('source-left');
    expect(fanRecord.subscriptions.has('source')).toBe(false);
    const key = RoomRegistry.key(APP.sdkAppId, '4101', false);
    expect(engine.ended).not.toContain(key);
    expect((await fan.send('leave', {})).code).toBe(0);
    expect(engine.ended).toContain(key);
  });

  it('41 handles: a publish that completes after its user left is refused (NOT_JOINED) from its closed handle', async () => {
    const racer = await join('racer', '4102');
    let release: () => void = () => undefined;
    engine.hold = new Promise<void>((resolve) => { release = resolve; });
    const published = racer.send('publish', { sdp: 'v=0' });
    expect((await racer.send('leave', {})).code).toBe(0);
    release();
    engine.hold = undefined;
    expect(await published).toMatchObject({ code: SERVER_CODE.NOT_JOINED, message: 'left the room while the publish was negotiated' });
  });
});
