import { SERVER_CODE } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { createLogger } from '../../src/log/logger.js';
import { joinData } from '../support/clients.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { sessionClient } from '../support/session-client.js';

/*
 * Issue 38, Low: `publish {encrypted: true}` is the client's word, and encrypted media is never recorded, so an app
 * that records every room refuses it unless it says otherwise (apps[].allowEncryptedMedia; docs/behaviour.md §12).
 */

const app = (n: number, extra: object) => ({ sdkAppId: 1400000370 + n, secretKey: `encrypted-media-${n}-secret-key-0123456`, ...extra });
const RECORDED = app(1, { recording: 'per-stream' });
const RECORDED_ALLOWING = app(2, { recording: 'mixed', allowEncryptedMedia: true });
const OPEN = app(3, {});
const FORBIDDING = app(4, { allowEncryptedMedia: false });

describe('38.low an app that records every room refuses end-to-end encrypted publishes, unless it allows them', () => {
  let ctx: ServerContext;
  beforeAll(() => {
    const config = configFromEnv({}, { apps: [RECORDED, RECORDED_ALLOWING, OPEN, FORBIDDING], logLevel: 'silent', storage: { path: ':memory:' } });
    ctx = createContext(config, { engine: new RecordingEngine(), logger: createLogger('silent') });
  });
  afterAll(async () => {
    await ctx.engine.close();
    closeContext(ctx);
  });

  const publish = async (target: typeof OPEN, encrypted: boolean) => {
    const c = sessionClient(ctx);
    expect((await c.send('join', await joinData(target, 'alice', '4401'))).code).toBe(0);
    return c.send('publish', { sdp: 'v=0\r\n', encrypted });
  };

  it('38.low publish {encrypted: true} is ENCRYPTED_MEDIA_REFUSED where recording is mandated or allowEncryptedMedia is false; allowed elsewhere', async () => {
    expect(await publish(RECORDED, true)).toMatchObject({ code: SERVER_CODE.ENCRYPTED_MEDIA_REFUSED, message: expect.stringMatching(/record/) });
    expect((await publish(RECORDED, false)).code).toBe(0);
    expect((await publish(RECORDED_ALLOWING, true)).code).toBe(0);
    expect((await publish(OPEN, true)).code).toBe(0);
    expect((await publish(FORBIDDING, true)).code).toBe(SERVER_CODE.ENCRYPTED_MEDIA_REFUSED);
  });
});
