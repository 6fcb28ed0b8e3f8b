import { describe, expect, it } from 'vitest';
import { ConnectionTracker } from '../../src/limits/connection-tracker.js';
import { RoomRegistry } from '../../src/room/room.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { Metrics } from '../../src/ops/metrics.js';

describe('metrics observe the engine', () => {
  it('counts engine events (failed clean-ups by operation, failed downlinks, restarts) and exports no forwarding counters the engine cannot give', async () => {
    const engine = new RecordingEngine();
    const connections = new ConnectionTracker();
    const metrics = new Metrics({ rooms: new RoomRegistry(), engine, connections: () => connections.total });
    try {
      engine.events.emit({ type: 'cleanup-failed', operation: 'room-destroy', detail: 'Janus refused' });
      engine.events.emit({ type: 'cleanup-failed', operation: 'rtp-forward-stop', detail: 'Janus refused' });
      engine.events.emit({ type: 'cleanup-failed', operation: 'rtp-forward-stop', detail: 'Janus refused' });
      engine.events.emit({ type: 'downlink-failed', subscriberId: 'p1', detail: 'hung up' });
      engine.events.emit({ type: 'feed-up', participantId: 'p2' });
      const text = await metrics.text();
      expect(text).toMatch(/conclave_engine_events_total\{type="cleanup-failed",operation="room-destroy"\} 1/);
      expect(text).toMatch(/conclave_engine_events_total\{type="cleanup-failed",operation="rtp-forward-stop"\} 2/);
      expect(text).toMatch(/conclave_engine_events_total\{type="downlink-failed",operation=""\} 1/);
      expect(text).not.toMatch(/type="feed-up"/);
      // The recording engine counts no forwarded packets (undefined): no false zero is exported.
      expect(text).not.toMatch(/conclave_forwarded_(bytes|packets)_total/);
      expect(text).toMatch(/conclave_peer_connections\{direction="uplink"\} 0/);
    } finally {
      metrics.close();
    }
  });
});
