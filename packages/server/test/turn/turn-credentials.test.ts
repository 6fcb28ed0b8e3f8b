import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { networkFromEnv } from '../../src/config/network.js';
import { scheduledTurnTcpInfo, turnCredential, turnIceServers } from '../../src/turn/turn-credentials.js';

describe('TURN REST credentials (coturn use-auth-secret)', () => {
  it('username is expiry:userId and the password is base64 HMAC-SHA1 of it', () => {
    const { username, credential } = turnCredential('s3cret-s3cret', 'alice', 1_700_000_000.7);
    expect(username).toBe('1700000000:alice');
    expect(credential).toBe(createHmac('sha1', 's3cret-s3cret').update('1700000000:alice').digest('base64'));
  });

  it('hands out the configured URLs with a credential expiring ttlSeconds from now, and nothing without TURN', () => {
    const [server] = turnIceServers({ urls: ['turn:127.0.0.1:3478'], secret: 'abcdefgh', ttlSeconds: 600 }, 'bob', 1_000_000);
    expect(server.urls).toEqual(['turn:127.0.0.1:3478']);
    expect(server.username).toBe(`${1000 + 600}:bob`);
    expect(turnIceServers(undefined, 'bob')).toEqual([]);
  });
});

describe('relay-switch thresholds (schedule config.useTurnTcpInfo, docs/behaviour.md §3/§4)', () => {
  const turn = { urls: ['turn:127.0.0.1:3478'], secret: 'abcdefgh', ttlSeconds: 600 };
  const fail = (message: string): never => {
    throw new Error(message);
  };

  it('are sent with TURN only, with defaults unless configured', () => {
    expect(scheduledTurnTcpInfo(undefined)).toEqual({});
    expect(scheduledTurnTcpInfo(turn)).toEqual({ useTurnTcpInfo: { rttRatioThreshold: 3, rttThreshold: 400, loss: 30, lossCount: 5 } });
    expect(scheduledTurnTcpInfo({ ...turn, useTurnTcpInfo: { rttRatioThreshold: 2, rttThreshold: 150 } })).toEqual({ useTurnTcpInfo: { rttRatioThreshold: 2, rttThreshold: 150, loss: 30, lossCount: 5 } });
  });

  it('CONCLAVE_TURN_RTT_RATIO / CONCLAVE_TURN_RTT_MS set them; bad values are refused', () => {
    const env = { CONCLAVE_TURN_URLS: 'turn:a:3478', CONCLAVE_TURN_SECRET: 'abcdefgh', CONCLAVE_TURN_RTT_RATIO: '2.5', CONCLAVE_TURN_RTT_MS: '250' };
    expect(networkFromEnv(env, {}, {}, fail).turn?.useTurnTcpInfo).toEqual({ rttRatioThreshold: 2.5, rttThreshold: 250 });
    expect(() => networkFromEnv({ ...env, CONCLAVE_TURN_RTT_RATIO: '0.5' }, {}, {}, fail)).toThrow(/CONCLAVE_TURN_RTT_RATIO/);
    expect(() => networkFromEnv({ ...env, CONCLAVE_TURN_RTT_MS: 'x' }, {}, {}, fail)).toThrow(/CONCLAVE_TURN_RTT_MS/);
  });

  it('40 the loss threshold: CONCLAVE_TURN_LOSS / CONCLAVE_TURN_LOSS_COUNT set the share and the checks; bad values are refused', () => {
    const env = { CONCLAVE_TURN_URLS: 'turn:a:3478', CONCLAVE_TURN_SECRET: 'abcdefgh', CONCLAVE_TURN_LOSS: '12.5', CONCLAVE_TURN_LOSS_COUNT: '3' };
    expect(networkFromEnv(env, {}, {}, fail).turn?.useTurnTcpInfo).toEqual({ rttRatioThreshold: 3, rttThreshold: 400, loss: 12.5, lossCount: 3 });
    expect(scheduledTurnTcpInfo(networkFromEnv(env, {}, {}, fail).turn).useTurnTcpInfo).toMatchObject({ loss: 12.5, lossCount: 3 });
    expect(() => networkFromEnv({ ...env, CONCLAVE_TURN_LOSS: '101' }, {}, {}, fail)).toThrow(/CONCLAVE_TURN_LOSS/);
    expect(() => networkFromEnv({ ...env, CONCLAVE_TURN_LOSS_COUNT: '0' }, {}, {}, fail)).toThrow(/CONCLAVE_TURN_LOSS_COUNT/);
  });
});
