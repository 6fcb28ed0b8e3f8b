import { Counter, Gauge, type Registry } from 'prom-client';
import { PROCESS_PEERS, REFUSED_MEDIA_INPUTS } from '../webrtc/index.js';
import type { EngineStats, MediaEngine } from '../engine/media-engine.js';

/** What the resource gauges read of the engine. */
export type ResourceSource = Pick<MediaEngine, 'stats'> & Partial<Pick<MediaEngine, 'inspect'>>;

/**
 * Gauges of what the server holds, for leak checks (a churn test, the soak): the engine's peer connections,
 * handles and media-server memory (stats(); a counter the engine cannot tell is left out, never a false zero),
 * the media server's own account (inspect(), Janus's admin API, read at scrape), and every werift peer
 * connection and ICE transport of this process (the embedded engine's and the data links, any engine).
 */
export function registerResourceGauges(registry: Registry, engine: ResourceSource): void {
  const registers = [registry];
  // What an engine can tell does not change while it runs: a counter unknown at start is not exported.
  const fromStats = (name: string, help: string, read: (stats: EngineStats) => number | undefined) => read(engine.stats()) !== undefined && new Gauge({
    name, help, registers,
    collect() { this.set(read(engine.stats()) ?? 0); },
  });
  fromStats('conclave_engine_peer_connections', 'Peer connections the media engine holds (closing ones too)', (stats) => stats.peerConnections);
  fromStats('conclave_engine_handles', 'Handles the media engine holds: Janus plugin handles, or werift ICE transports not closed', (stats) => stats.handles);
  fromStats('conclave_media_server_memory_bytes', 'Resident memory of the media server process (a spawned Janus)', (stats) => stats.mediaServerMemoryBytes);
  new Gauge({
    name: 'conclave_werift_peer_connections', help: 'werift peer connections of this process not fully closed (embedded engine and data links)', registers,
    collect() { this.set(PROCESS_PEERS.peerConnections); },
  });
  new Gauge({
    name: 'conclave_werift_ice_transports', help: 'werift ICE transports of this process not closed', registers,
    collect() { this.set(PROCESS_PEERS.transports); },
  });
  new Counter({
    name: 'conclave_media_inputs_refused_total', help: 'Malformed RTP headers and transport-cc feedback from peers, refused before werift parsed them, by kind', labelNames: ['kind'], registers,
    collect() {
      this.reset();
      for (const [kind, count] of Object.entries(REFUSED_MEDIA_INPUTS)) this.inc({ kind }, count);
    },
  });
  const inspect = engine.inspect?.bind(engine);
  if (!inspect) return;
  new Gauge({
    name: 'conclave_media_server_resources', help: 'What the media server itself reports holding (Janus admin API), by kind', labelNames: ['kind'], registers,
    async collect() {
      const report = await inspect();
      this.reset();
      if (!report) return;
      this.set({ kind: 'sessions' }, report.sessions);
      this.set({ kind: 'handles' }, report.handles);
      if (report.peerConnections !== undefined) this.set({ kind: 'peer_connections' }, report.peerConnections);
    },
  });
}
