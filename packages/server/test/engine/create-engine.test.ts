import { describe, expect, it } from 'vitest';
import { configFromEnv, resolveConfig } from '../../src/config/config.js';
import { startServer } from '../../src/server.js';
import { findJanus, janusMainConfig, janusWebSocketConfig, JanusMissingError } from '../../src/engine/janus/janus-config.js';
import { configFailure } from '../support/config-failure.js';

const APP = { sdkAppId: 1400000001, secretKey: 'a-secret-key-0123456789' };


describe('engine configuration', () => {
  it('embedded by default; CONCLAVE_ENGINE, CONCLAVE_JANUS_URL and CONCLAVE_MEDIA_PORTS choose the engine and its ports', () => {
    expect(configFromEnv({}, { apps: [APP] }).engine).toBe('embedded');
    const config = resolveConfig({ apps: [APP] }, { CONCLAVE_ENGINE: 'janus', CONCLAVE_JANUS_URL: 'ws://127.0.0.1:8188', CONCLAVE_JANUS_SECRET: 's3cret', CONCLAVE_MEDIA_PORTS: '40000-40999' });
    expect(config).toMatchObject({ engine: 'janus', janusUrl: 'ws://127.0.0.1:8188', janusSecret: 's3cret', mediaPorts: [40000, 40999] });
  });

  it('bad engine settings stop the server with a message naming the variable', () => {
    expect(configFailure(() => configFromEnv({ CONCLAVE_ENGINE: 'mediasoup' }, { apps: [APP] }))).toMatch(/CONCLAVE_ENGINE must be one of embedded, janus/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_JANUS_URL: 'http://x' }, { apps: [APP] }))).toMatch(/CONCLAVE_JANUS_URL must be a ws:\/\//);
    expect(configFailure(() => configFromEnv({ CONCLAVE_MEDIA_PORTS: '50000-40000' }, { apps: [APP] }))).toMatch(/CONCLAVE_MEDIA_PORTS must be a UDP port range/);
    expect(configFailure(() => configFromEnv({ CONCLAVE_MEDIA_PORTS: '80-90' }, { apps: [APP] }))).toMatch(/CONCLAVE_MEDIA_PORTS/);
  });

  it('Janus missing: the server refuses to start with a message naming the Debian package', async () => {
    expect(() => findJanus({ PATH: '/nonexistent' })).toThrow(JanusMissingError);
    expect(() => findJanus({ PATH: '/nonexistent' })).toThrow(/apt-get install janus.*Debian package `janus`/);
    await expect(startServer({ port: 0, host: '127.0.0.1', apps: [APP], engine: 'janus', storage: { path: ':memory:' }, logLevel: 'silent' }, { PATH: '/nonexistent' }))
      .rejects.toThrow(/Debian package `janus`/);
  });

  it('the generated Janus configuration: loopback-only API, secrets, our folders, ports and ICE address', () => {
    const options = { dir: '/tmp/x', wsPort: 12345, apiSecret: 'api-s', adminSecret: 'admin-s', iceAddress: '10.231.1.1', portRange: [40000, 40100] as [number, number] };
    const main = janusMainConfig(options);
    expect(main).toContain('api_secret = "api-s"');
    expect(main).toContain('admin_secret = "admin-s"');
    expect(main).toContain('plugins_folder = "/tmp/x/plugins"');
    expect(main).toContain('transports_folder = "/tmp/x/transports"');
    expect(main).toContain('rtp_port_range = "40000-40100"');
    expect(main).toContain('ice_enforce_list = "10.231.1.1"');
    expect(main).toContain('ice_lite = false');
    expect(main).toContain('ice_nomination = "aggressive"');
    expect(main).toMatch(/event_loops = [1-9]\d*/);
    expect(janusMainConfig({ ...options, eventLoops: 3 })).toContain('event_loops = 3');
    // Janus cannot gather on loopback: a loopback address is not enforced (it would leave no candidate).
    expect(janusMainConfig({ ...options, iceAddress: '127.0.0.1' })).not.toContain('ice_enforce_list');
    const ws = janusWebSocketConfig(options);
    expect(ws).toContain('ws_port = 12345');
    expect(ws).toContain('ws_ip = "127.0.0.1"');
    expect(ws).toContain('admin_ws = false');
    // The admin API, for resource checks, listens on loopback only.
    expect(janusWebSocketConfig({ ...options, adminWsPort: 12346 })).toContain('admin_ws = true admin_ws_port = 12346 admin_ws_ip = "127.0.0.1"');
  });
});
