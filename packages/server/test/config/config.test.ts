import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv, DEFAULT_LIMITS, DEV_SDKAPPID, resolveConfig } from '../../src/config/config.js';
import { configFailure } from '../support/config-failure.js';

const dir = mkdtempSync(join(tmpdir(), 'conclave-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: unknown): string {
  const path = join(dir, `conclave-${++n}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const A = { sdkAppId: 1400000001, secretKey: 'a-secret-key-0123456789', adminKey: 'a-admin-key-0123456789' };
const B = { sdkAppId: 1400000002, secretKey: 'b-secret-key-0123456789', adminKey: 'b-admin-key-0123456789', requirePrivateMapKey: true, billing: 'out-of-credit' };

/** The ConfigError message of a failing call. */

describe('configuration', () => {
  it('reads several apps, domains, limits and storage from the file', () => {
    const config = resolveConfig({}, {
      CONCLAVE_CONFIG: file({
        port: 9000, apps: [A, B],
        domains: { main: 'wss://rtc-a.example.com/signal', backup: 'wss://rtc-b.example.com/signal' },
        limits: { connectionsPerIp: 7, audiencePerLiveRoom: 20 },
        storage: { path: join(dir, 'x.db') },
      }),
    });
    expect(config.port).toBe(9000);
    expect(config.apps).toEqual([A, B]);
    expect(config.devMode).toBe(false);
    expect(config.domains).toEqual({ main: 'wss://rtc-a.example.com/signal', backup: 'wss://rtc-b.example.com/signal' });
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, connectionsPerIp: 7, audiencePerLiveRoom: 20 });
    expect(config.storage).toEqual({ path: join(dir, 'x.db'), logRetentionDays: 7 });
  });

  it('environment wins over the file; the env app is added, or replaces the key of the same sdkAppId', () => {
    const path = file({ apps: [A], port: 9000 });
    const added = configFromEnv({ CONCLAVE_CONFIG: path, PORT: '9100', CONCLAVE_SDKAPPID: '1400000009', CONCLAVE_SECRET_KEY: 'env-secret-key-0123456', CONCLAVE_ADMIN_KEY: 'env-admin-key-0123456' });
    expect(added.port).toBe(9100);
    expect(added.apps).toEqual([A, { sdkAppId: 1400000009, secretKey: 'env-secret-key-0123456', adminKey: 'env-admin-key-0123456' }]);
    const replaced = configFromEnv({ CONCLAVE_CONFIG: path, CONCLAVE_SDKAPPID: String(A.sdkAppId), CONCLAVE_SECRET_KEY: 'rotated-secret-key-01234' });
    expect(replaced.apps).toEqual([{ ...A, secretKey: 'rotated-secret-key-01234' }]);
    const env = configFromEnv({ CONCLAVE_SIGNAL_MAIN: 'wss://main.example.com/signal', CONCLAVE_MAX_CONNECTIONS_PER_IP: '3', CONCLAVE_DB: ':memory:' }, { apps: [A] });
    expect(env.domains).toEqual({ main: 'wss://main.example.com/signal' });
    expect(env.limits.connectionsPerIp).toBe(3);
    expect(env.storage.path).toBe(':memory:');
  });

  it('without any app, a dev app with generated secret and admin keys', () => {
    const config = configFromEnv({});
    expect(config.devMode).toBe(true);
    expect(config.apps[0]).toMatchObject({ sdkAppId: DEV_SDKAPPID, secretKey: expect.stringMatching(/^[0-9a-f]{64}$/), adminKey: expect.stringMatching(/^[0-9a-f]{48}$/) });
  });

  it('overrides in code win, limits and storage field by field', () => {
    const config = resolveConfig({ apps: [A], limits: { usersPerRoom: 5 }, storage: { path: ':memory:' } }, { CONCLAVE_CONFIG: file({ apps: [B], limits: { banSeconds: 30 } }) });
    expect(config.apps).toEqual([A]);
    expect(config.limits).toMatchObject({ usersPerRoom: 5, banSeconds: 30, connectionsPerIp: DEFAULT_LIMITS.connectionsPerIp });
    expect(config.storage.path).toBe(':memory:');
  });

  it('the engine settings: the downlink allocator on unless turned off (environment over file over code)', () => {
    expect(configFromEnv({}, { apps: [A] }).downlinkAllocator).toBe(true);
    expect(configFromEnv({ CONCLAVE_DOWNLINK_ALLOCATOR: 'off' }, { apps: [A] }).downlinkAllocator).toBe(false);
    expect(configFromEnv({}, { apps: [A], downlinkAllocator: false }).downlinkAllocator).toBe(false);
    expect(configFromEnv({ CONCLAVE_CONFIG: file({ downlinkAllocator: false }) }, { apps: [A] }).downlinkAllocator).toBe(false);
    expect(configFromEnv({ CONCLAVE_CONFIG: file({ downlinkAllocator: false }), CONCLAVE_DOWNLINK_ALLOCATOR: 'on' }, { apps: [A] }).downlinkAllocator).toBe(true);
    expect(configFailure(() => configFromEnv({ CONCLAVE_DOWNLINK_ALLOCATOR: 'no' }, { apps: [A] }))).toMatch(/CONCLAVE_DOWNLINK_ALLOCATOR must be 'on' or 'off', got 'no'/);
  });

  it('stops with a message that names the file and the field', () => {
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: join(dir, 'missing.json') }))).toMatch(/CONCLAVE_CONFIG: cannot read .*missing\.json/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file('{"apps": [') }))).toMatch(/is not valid JSON/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ apps: [{ ...A, secretKey: 'short' }] }) }))).toMatch(/apps\[0\]\.secretKey: must be at least 16 characters/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ apps: [{ ...A, adminkey: 'typo-in-the-field-name' }] }) }))).toMatch(/apps\[0\].*adminkey/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ apps: [{ ...A, billing: 'free' }] }) }))).toMatch(/apps\[0\]\.billing/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ limits: { connectionsPerIp: 0 } }) }))).toMatch(/limits\.connectionsPerIp: must be at least 1/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ domains: { main: 'http://x/signal' } }) }))).toMatch(/domains\.main: must be a ws:\/\/ or wss:\/\/ URL/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ prot: 80 }) }))).toMatch(/prot/);
    expect(configFailure(() => resolveConfig({}, { CONCLAVE_CONFIG: file({ apps: [A, { ...B, sdkAppId: A.sdkAppId }] }) }))).toMatch(/apps\[1\]\.sdkAppId: sdkAppId 1400000001 is listed twice/);
    expect(configFailure(() => resolveConfig({ apps: [] }, {}))).toMatch(/apps: must list at least one app/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_SDKAPPID: '5' }))).toMatch(/must be set together/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_ADMIN_KEY: 'short' }))).toMatch(/CONCLAVE_ADMIN_KEY must be at least 16/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_MAX_CONNECTIONS_PER_IP: 'lots' }, { apps: [A] }))).toMatch(/CONCLAVE_MAX_CONNECTIONS_PER_IP must be an integer/);
  });

  it('cloud API key pairs: several per app, each SecretId once across apps, keys of at least 16 characters', () => {
    const one = { secretId: 'AKIDfirstKeyOfAppA', secretKey: 'first-cloud-api-secret-key-0123' };
    const two = { secretId: 'AKIDsecondKeyOfAppA', secretKey: 'second-cloud-api-secret-key-012' };
    const config = resolveConfig({}, { CONCLAVE_CONFIG: file({ apps: [{ ...A, cloudApiKeys: [one, two] }, B], limits: { cloudApiRequestsPerSecond: 5 } }) });
    expect(config.apps[0].cloudApiKeys).toEqual([one, two]);
    expect(config.limits).toMatchObject({ cloudApiRequestsPerSecond: 5, cloudApiClockSkewSeconds: 300 });
    expect(configFailure(() => resolveConfig({}, { CONCLAVE_CONFIG: file({ apps: [{ ...A, cloudApiKeys: [one] }, { ...B, cloudApiKeys: [one] }] }) })))
      .toMatch(/apps\[1\]\.cloudApiKeys\[0\]\.secretId: this secretId is listed twice/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ apps: [{ ...A, cloudApiKeys: [{ ...one, secretKey: 'short' }] }] }) })))
      .toMatch(/apps\[0\]\.cloudApiKeys\[0\]\.secretKey: must be at least 16 characters/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_CONFIG: file({ apps: [{ ...A, cloudApiKeys: [{ ...one, secretId: 'has space in it' }] }] }) })))
      .toMatch(/apps\[0\]\.cloudApiKeys\[0\]\.secretId/);
  });
});
