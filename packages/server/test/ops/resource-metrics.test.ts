import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { EngineStats, MediaServerReport } from '../../src/engine/media-engine.js';
import { registerResourceGauges } from '../../src/ops/resource-metrics.js';

const BASE: EngineStats = { uplinks: 1, downlinks: 2, subscriptions: 2, forwardedPackets: undefined, forwardedBytes: undefined, receivedPackets: undefined };

describe('resource gauges', () => {
  it('export the engine\'s peer connections, handles and media-server memory, and the media server\'s own report', async () => {
    const registry = new Registry();
    const report: MediaServerReport = { sessions: 1, handles: 5, peerConnections: 3 };
    registerResourceGauges(registry, {
      stats: () => ({ ...BASE, peerConnections: 3, handles: 5, mediaServerMemoryBytes: 42_000_000 }),
      inspect: () => Promise.resolve(report),
    });
    const text = await registry.metrics();
    expect(text).toMatch(/^conclave_engine_peer_connections 3$/m);
    expect(text).toMatch(/^conclave_engine_handles 5$/m);
    expect(text).toMatch(/^conclave_media_server_memory_bytes 42000000$/m);
    expect(text).toMatch(/^conclave_media_server_resources\{kind="handles"\} 5$/m);
    expect(text).toMatch(/^conclave_media_server_resources\{kind="sessions"\} 1$/m);
    expect(text).toMatch(/^conclave_werift_peer_connections \d+$/m);
  });

  it('leave out what the engine cannot tell (no false zero)', async () => {
    const registry = new Registry();
    registerResourceGauges(registry, { stats: () => BASE });
    const text = await registry.metrics();
    expect(text).not.toMatch(/^conclave_engine_handles /m);
    expect(text).not.toMatch(/^conclave_media_server_memory_bytes /m);
    expect(text).not.toMatch(/conclave_media_server_resources\{/);
  });
});
