import { PROTOCOL_VERSION, SERVER_CODE } from '@conclave/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, type AppConfig, type LimitsConfig } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { createLogger } from '../../src/log/logger.js';
import { joinData } from '../support/clients.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { sessionClient } from '../support/session-client.js';
import { waitFor } from '../support/engine-peers.js';
import { FAILED_JOINS_CLOSE_CODE } from '../../src/signal/admission.js';

const APP: AppConfig = { sdkAppId: 1400380003, secretKey: 'failed-joins-test-secret-0123456' };
const GARBAGE = 'eJyrVkrOz-not-a-real-sig';

describe('38.3 admission after authentication', () => {
  let ctx: ServerContext | undefined;
  afterEach(() => {
    if (ctx) closeContext(ctx);
    ctx = undefined;
  });
  const setup = (limits: Partial<LimitsConfig>) => {
    const config = configFromEnv({}, { apps: [APP], logLevel: 'silent', storage: { path: ':memory:' }, limits });
    ctx = createContext(config, { engine: new RecordingEngine(), logger: createLogger('silent') });
    return ctx;
  };
  const join = async (c: ReturnType<typeof sessionClient>, userId: string, extra: Record<string, unknown> = {}) =>
    c.send('join', await joinData(APP, userId, '1', { protocolVersion: PROTOCOL_VERSION, ...extra }));

  it('38.3 admission after authentication: joins with bad userSigs book no admission slot, so a real join right after them is admitted at once', async () => {
    // A node that admits 2 joins at once, then 1 a second: today's 20 garbage joins would queue a real one 18 s back.
    const node = setup({ joinsPerSecond: 1, joinBurst: 2 });
    for (let i = 0; i < 20; i++) {
      const attacker = sessionClient(node, `198.51.100.${i}`);
      expect((await join(attacker, `x${i}`, { userSig: GARBAGE })).code).toBe(SERVER_CODE.USERSIG_MALFORMED);
    }
    expect(node.admission.counts).toMatchObject({ admitted: 0, throttled: 0, waiting: 0 });
    const real = sessionClient(node, '203.0.113.7');
    expect((await join(real, 'alice')).code).toBe(0);
  });

  it('38.3 admission after authentication: a connection holds one place in the queue, however often it joins without its ticket', async () => {
    const node = setup({ joinsPerSecond: 1, joinBurst: 1 });
    expect((await join(sessionClient(node, '203.0.113.1'), 'first')).code).toBe(0);
    const eager = sessionClient(node, '203.0.113.2');
    const tickets = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const reply = await join(eager, 'eager');
      expect(reply.code).toBe(SERVER_CODE.JOIN_THROTTLED);
      tickets.add((reply.data as { ticket: string }).ticket);
    }
    expect(tickets.size).toBe(1);
    expect(node.admission.counts.waiting).toBe(1);
  });

  it('38.3 failed joins per connection: after limits.failedJoinsPerConnection failures the next join is refused unchecked and the connection closed', async () => {
    const node = setup({ failedJoinsPerConnection: 3 });
    const attacker = sessionClient(node, '198.51.100.1');
    for (let i = 0; i < 3; i++) expect((await join(attacker, 'mallory', { userSig: GARBAGE })).code).toBe(SERVER_CODE.USERSIG_MALFORMED);
    // Even a good join is refused now: the connection is spent.
    const refused = await join(attacker, 'mallory');
    expect(refused).toMatchObject({ code: SERVER_CODE.TOO_MANY_FAILED_JOINS, message: 'too many failed joins on this connection' });
    await waitFor(() => attacker.closeCode === FAILED_JOINS_CLOSE_CODE, 2_000, 'the connection closed');
    // Another connection from the same address still joins.
    expect((await join(sessionClient(node, '198.51.100.1'), 'mallory')).code).toBe(0);
  });

  it('38.3 failed joins per address: past limits.failedJoinsPerMinute failures, the address\'s joins are refused unchecked; other addresses join', async () => {
    const node = setup({ failedJoinsPerMinute: 4 });
    for (let i = 0; i < 4; i++) expect((await join(sessionClient(node, '198.51.100.2'), 'mallory', { userSig: GARBAGE })).code).toBe(SERVER_CODE.USERSIG_MALFORMED);
    const next = await join(sessionClient(node, '198.51.100.2'), 'mallory');
    expect(next).toMatchObject({ code: SERVER_CODE.TOO_MANY_FAILED_JOINS, message: 'too many failed joins from this address: try again later' });
    expect((await join(sessionClient(node, '203.0.113.8'), 'bob')).code).toBe(0);
  });
});
