import { genUserSig } from '@conclave/usersig';
import { DATA_RECORD, decodeRecords, encodeRecords, uint32Bytes, type ReplyMessage } from '@conclave/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFromEnv } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { createLogger } from '../../src/log/logger.js';
import { SignalSession } from '../../src/signal/session.js';

const APP = { sdkAppId: 1400000321, secretKey: 'custom-message-test-secret-0123456789' };

/** Data links the test plays: records what is sent, lets the test play a client's channel. */
class FakeDataLinks {
  readonly onData = new Map<string, (data: Uint8Array) => void>();
  readonly sent: { to: string; data: Uint8Array }[] = [];
  async open(participantId: string, _offer: string, onData: (data: Uint8Array) => void): Promise<string> {
    this.onData.set(participantId, onData);
    return 'answer';
  }
  send(participantId: string, data: Uint8Array): boolean {
    this.sent.push({ to: participantId, data });
    return true;
  }
  close(participantId: string): void {
    this.onData.delete(participantId);
  }
  closeAll(): void {}
}

function setup() {
  const config = configFromEnv({}, { apps: [APP], logLevel: 'silent', storage: { path: ':memory:' } });
  const ctx = createContext(config, { engine: new RecordingEngine(), logger: createLogger('silent') });
  const engine = new FakeDataLinks();
  ctx.dataLinks = engine;
  return { ctx, engine };
}

async function joined(ctx: ServerContext, userId: string, roomId: string, extra: Record<string, unknown> = {}) {
  const replies: ReplyMessage[] = [];
  const session = new SignalSession(ctx, { send: (t) => replies.push(JSON.parse(t) as ReplyMessage), close: () => undefined });
  let id = 0;
  const send = async (cmd: string, data: unknown) => {
    await session.handle(JSON.stringify({ id: ++id, cmd, data }));
  };
  await send('join', {
    sdkAppId: APP.sdkAppId, userId, userSig: await genUserSig({ ...APP, userId }), roomId, useStringRoomId: false,
    trtcRole: 20, trtcScene: 1, version: '5.10.1', ua: 'test', terminalType: 15, ...extra,
  });
  await send('data-link', { sdp: 'offer' });
  expect(replies.filter((r) => 'id' in r).map((r) => r.code)).toEqual([0, 0]);
  return session;
}

const message = (cmdId: number, seq: number, bytes: number, tinyId = 'forged') => encodeRecords([
  { tag: DATA_RECORD.TINY_ID, value: new TextEncoder().encode(tinyId) },
  { tag: DATA_RECORD.CMD_ID, value: new Uint8Array([cmdId]) },
  { tag: DATA_RECORD.SEQ, value: uint32Bytes(seq) },
  { tag: DATA_RECORD.PAYLOAD, value: new Uint8Array(bytes).fill(7) },
]);

describe('custom messages on the server', () => {
  let ctx: ServerContext | undefined;
  afterEach(() => {
    if (ctx) closeContext(ctx);
    ctx = undefined;
  });

  it('forwards to the other participants of the same room only, stamped with the sender tinyId', async () => {
    const { ctx: c, engine } = setup();
    ctx = c;
    await joined(c, 'alice', '1');
    await joined(c, 'bob', '1');
    await joined(c, 'carol', '1');
    await joined(c, 'dave', '2');
    const ids = [...engine.onData.keys()];
    expect(ids).toHaveLength(4);
    const [alice, bob, carol, dave] = ids;
    engine.onData.get(alice)!(message(3, 100, 10));
    expect(engine.sent.map((s) => s.to).sort()).toEqual([bob, carol].sort());
    expect(engine.sent.some((s) => s.to === dave || s.to === alice)).toBe(false);
    const records = decodeRecords(engine.sent[0].data)!;
    const tiny = new TextDecoder().decode(records.find((r) => r.tag === DATA_RECORD.TINY_ID)!.value);
    expect(tiny).not.toBe('forged');
    expect(records.filter((r) => r.tag === DATA_RECORD.TINY_ID)).toHaveLength(1);
    expect(records.find((r) => r.tag === DATA_RECORD.PAYLOAD)!.value.length).toBe(10);
  });

  it('drops messages beyond 30 per second and 8000 bytes per second per sender, and malformed ones', async () => {
    const { ctx: c, engine } = setup();
    ctx = c;
    await joined(c, 'alice', '1');
    await joined(c, 'bob', '1');
    const [alice] = [...engine.onData.keys()];
    // The limiter reads the clock: move it on by a window instead of sleeping through one.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let i = 0; i < 40; i++) engine.onData.get(alice)!(message(1, i, 10));
      expect(engine.sent).toHaveLength(30);
      engine.sent.length = 0;
      vi.setSystemTime(Date.now() + 1050);
      for (let i = 0; i < 9; i++) engine.onData.get(alice)!(message(2, i, 1000));
      expect(engine.sent).toHaveLength(8);
      engine.sent.length = 0;
      vi.setSystemTime(Date.now() + 1050);
    } finally {
      vi.useRealTimers();
    }
    engine.onData.get(alice)!(new Uint8Array([2, 0, 9, 1]));
    engine.onData.get(alice)!(message(1, 1, 1001));
    engine.onData.get(alice)!(encodeRecords([{ tag: DATA_RECORD.CMD_ID, value: new Uint8Array([1]) }]));
    expect(engine.sent).toHaveLength(0);
  });

  it('an audience in live cannot send custom messages', async () => {
    const { ctx: c, engine } = setup();
    ctx = c;
    await joined(c, 'viewer', '1', { trtcScene: 2, trtcRole: 21 });
    await joined(c, 'host', '1', { trtcScene: 2, trtcRole: 20 });
    const [viewer, host] = [...engine.onData.keys()];
    engine.onData.get(viewer)!(message(1, 1, 10));
    expect(engine.sent).toHaveLength(0);
    engine.onData.get(host)!(message(1, 1, 10));
    expect(engine.sent.map((s) => s.to)).toEqual([viewer]);
  });
});
