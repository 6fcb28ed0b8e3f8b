import { FLAG, ROLE_CODE } from '@conclave/protocol';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { EngineListener, EngineStats, MediaEngine } from '../engine/media-engine.js';
import type { JobsSnapshot } from '../jobs/job-manager.js';
import type { RoomRegistry } from '../room/room.js';
import type { TranscribersSnapshot } from '../transcriber/transcriber-manager.js';
import { registerResourceGauges } from './resource-metrics.js';

/**
 * WHEP / WHIP figures for /metrics: open sessions by kind, and the quota refusals so far by scope. Declared here,
 * where they are read, so that metrics import nothing of WHEP, which imports them (no folder circle).
 */
export interface WhepSnapshot {
  sessions: { whep: number; mix: number; whip: number };
  refusals: { app: number; node: number };
}

/** What the metrics read when scraped. */
export interface MetricSources {
  rooms: RoomRegistry;
  engine: { stats(): EngineStats; onEvent(listener: EngineListener): () => void } & Partial<Pick<MediaEngine, 'inspect'>>;
  /** Open signalling connections. */
  connections(): number;
}

/**
 * Prometheus metrics (text format at /metrics), on a registry of this server's own so several servers
 * in one process (tests) do not mix. Gauges are read from the rooms and the engine when scraped; the
 * forwarding bitrate is the rate of forwarded bytes between two samples (every `sampleMs`, and at scrape).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #errors: Counter<'source' | 'code'>;
  readonly #signalMessages: Counter;
  readonly #logUploads: Counter<'cmdtype'>;
  readonly #logsDropped: Counter<'reason'>;
  readonly #beacons: Counter;
  readonly #beaconCounts: Counter<'class'>;
  readonly #adminActions: Counter<'action'>;
  readonly #closedByServer: Counter<'reason'>;
  readonly #refused: Counter<'reason'>;
  readonly #sampler: ReturnType<typeof setInterval> | undefined;
  readonly #unobserve: () => void;
  #lastBytes = 0;
  #lastAt = Date.now();
  #bitrate = 0;

  constructor(sources: MetricSources, sampleMs = 5000) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'conclave_' });
    new Gauge({
      name: 'conclave_rooms', help: 'Rooms with at least one user', registers,
      collect() { this.set(sources.rooms.size); },
    });
    new Gauge({
      name: 'conclave_users', help: 'Users in rooms, by role', labelNames: ['role'], registers,
      collect() {
        let anchors = 0;
        let audience = 0;
        for (const room of sources.rooms.rooms()) for (const p of room.participants()) {
          if (p.role === ROLE_CODE.audience) audience++;
          else anchors++;
        }
        this.set({ role: 'anchor' }, anchors);
        this.set({ role: 'audience' }, audience);
      },
    });
    new Gauge({
      name: 'conclave_streams', help: 'Published streams, by kind (from the publishers\' flags)', labelNames: ['kind'], registers,
      collect() {
        const counts = { audio: 0, video: 0, small: 0, aux: 0 };
        for (const room of sources.rooms.rooms()) for (const p of room.participants()) {
          if (p.flag & FLAG.AUDIO) counts.audio++;
          if (p.flag & FLAG.VIDEO) counts.video++;
          if (p.flag & FLAG.SMALL) counts.small++;
          if (p.flag & FLAG.AUX) counts.aux++;
        }
        for (const [kind, n] of Object.entries(counts)) this.set({ kind }, n);
      },
    });
    new Gauge({
      name: 'conclave_peer_connections', help: 'Media peer connections, by direction', labelNames: ['direction'], registers,
      collect() {
        const stats = sources.engine.stats();
        this.set({ direction: 'uplink' }, stats.uplinks);
        this.set({ direction: 'downlink' }, stats.downlinks);
      },
    });
    new Gauge({
      name: 'conclave_signal_connections', help: 'Open signalling WebSocket connections', registers,
      collect() { this.set(sources.connections()); },
    });
    registerResourceGauges(this.registry, sources.engine);
    // Counters an engine cannot measure (undefined in its stats) are not exported: no false zeros.
    this.#sampler = sources.engine.stats().forwardedBytes === undefined ? undefined : this.#forwarding(sources.engine, sampleMs);
    const engineEvents = new Counter({ name: 'conclave_engine_events_total', help: 'Media engine events (downlink failures, engine restarts, failed clean-ups), by type and operation', labelNames: ['type', 'operation'], registers });
    this.#unobserve = sources.engine.onEvent((event) => {
      if (event.type === 'feed-up') return;
      engineEvents.inc({ type: event.type, operation: event.type === 'cleanup-failed' ? event.operation : '' });
    });
    this.#errors = new Counter({ name: 'conclave_errors_total', help: 'Refusals and errors answered, by source and code', labelNames: ['source', 'code'], registers });
    this.#signalMessages = new Counter({ name: 'conclave_signal_messages_total', help: 'Signalling messages received', registers });
    this.#logUploads = new Counter({ name: 'conclave_log_uploads_total', help: 'Log uploads stored, by cmdtype', labelNames: ['cmdtype'], registers });
    this.#logsDropped = new Counter({ name: 'conclave_logs_dropped_total', help: 'Stored log uploads dropped to keep the log storage quota (limits.logBytesPerApp, logBytesTotal), by quota', labelNames: ['reason'], registers });
    this.#beacons = new Counter({ name: 'conclave_stat_beacons_total', help: 'Statistics beacons accepted', registers });
    this.#beaconCounts = new Counter({
      name: 'conclave_stat_beacon_counts_total', help: 'Sum of the counts reported in statistics beacons, by key class (docs/behaviour.md §9)', labelNames: ['class'], registers,
    });
    this.#adminActions = new Counter({ name: 'conclave_admin_actions_total', help: 'Admin API actions, by kind', labelNames: ['action'], registers });
    this.#refused = new Counter({ name: 'conclave_connections_refused_total', help: 'Signalling connections refused, by reason', labelNames: ['reason'], registers });
    this.#closedByServer = new Counter({ name: 'conclave_connections_closed_total', help: 'Signalling connections the server closed for misbehaving, by reason', labelNames: ['reason'], registers });
  }

  /** Forwarded bytes and packets, and the forwarding bitrate sampled every `sampleMs`. */
  #forwarding(engine: { stats(): EngineStats }, sampleMs: number): ReturnType<typeof setInterval> {
    const registers = [this.registry];
    const counted = { bytes: 0, packets: 0 };
    const counter = (name: string, help: string, read: (stats: EngineStats) => number | undefined, key: 'bytes' | 'packets') => new Counter({
      name, help, registers,
      collect() {
        const value = read(engine.stats()) ?? counted[key];
        this.inc(Math.max(0, value - counted[key]));
        counted[key] = Math.max(counted[key], value);
      },
    });
    counter('conclave_forwarded_bytes_total', 'RTP payload bytes forwarded to subscribers', (stats) => stats.forwardedBytes, 'bytes');
    counter('conclave_forwarded_packets_total', 'RTP packets forwarded to subscribers', (stats) => stats.forwardedPackets, 'packets');
    const sample = () => {
      const now = Date.now();
      const bytes = engine.stats().forwardedBytes ?? this.#lastBytes;
      if (now > this.#lastAt) this.#bitrate = ((bytes - this.#lastBytes) * 8 * 1000) / (now - this.#lastAt);
      this.#lastBytes = bytes;
      this.#lastAt = now;
    };
    const bitrate = () => this.#bitrate;
    new Gauge({
      name: 'conclave_forward_bitrate_bps', help: 'Forwarded media bitrate over the last sampling interval, bits per second', registers,
      collect() { this.set(bitrate()); },
    });
    const sampler = setInterval(sample, sampleMs);
    sampler.unref();
    return sampler;
  }

  /** A reply or response with a non-zero code. */
  error(source: 'signal' | 'http', code: number): void {
    this.#errors.inc({ source, code: String(code) });
  }

  signalMessage(): void {
    this.#signalMessages.inc();
  }

  logUpload(cmdType: string): void {
    this.#logUploads.inc({ cmdtype: cmdType });
  }

  /** Stored uploads dropped for a quota ('app_quota', 'total_quota'). */
  logsDropped(reason: 'app_quota' | 'total_quota', count: number): void {
    if (count > 0) this.#logsDropped.inc({ reason }, count);
  }

  /** conclave_log_bytes_stored: the uploaded log text the store keeps, read from `source` when scraped. */
  trackLogStorage(source: () => number): void {
    new Gauge({
      name: 'conclave_log_bytes_stored', help: 'Bytes of uploaded log text stored (under limits.logBytesPerApp and logBytesTotal)', registers: [this.registry],
      collect() { this.set(source()); },
    });
  }

  beacon(counts: { key: number; count: number }[]): void {
    this.#beacons.inc();
    for (const { key, count } of counts) this.#beaconCounts.inc({ class: keyClass(key) }, count);
  }

  adminAction(action: string): void {
    this.#adminActions.inc({ action });
  }

  connectionRefused(reason: string): void {
    this.#refused.inc({ reason });
  }

  /** The server closed a signalling connection for misbehaving ('too many failed joins', 'send buffer full'). */
  connectionClosed(reason: string): void {
    this.#closedByServer.inc({ reason });
  }

  /**
   * Media job metrics, read from `source` when scraped: conclave_media_jobs{kind}, conclave_media_job_restarts_total,
   * conclave_media_job_encode_fps{job,kind}.
   */
  trackJobs(source: () => JobsSnapshot): void {
    const registers = [this.registry];
    new Gauge({
      name: 'conclave_media_jobs', help: 'Running media jobs (mix, CDN relay, recording), by kind', labelNames: ['kind'], registers,
      collect() {
        this.reset();
        for (const [kind, n] of Object.entries(source().jobs)) this.set({ kind }, n);
      },
    });
    this.#totalOf('conclave_media_job_restarts_total', 'Media jobs restarted after their process died', () => source().restarts);
    const refused = { user: 0, app: 0, node: 0 };
    new Counter({
      name: 'conclave_media_jobs_refused_total', help: 'CDN media jobs refused by a cap (limits.jobsPerUser, jobsPerApp, jobsPerNode), by cap', labelNames: ['limit'], registers,
      collect() {
        for (const [limit, value] of Object.entries(source().refused) as [keyof typeof refused, number][]) {
          this.inc({ limit }, Math.max(0, value - refused[limit]));
          refused[limit] = Math.max(refused[limit], value);
        }
      },
    });
    new Gauge({
      name: 'conclave_media_job_encode_fps', help: 'Frames per second each media job encodes (or relays), over the last 2 s', labelNames: ['job', 'kind'], registers,
      collect() {
        this.reset();
        for (const { jobId, kind, fps } of source().fps) this.set({ job: jobId, kind }, fps);
      },
    });
  }

  /**
   * Transcriber robot metrics, read from `source` when scraped: conclave_transcriber_robots{engine},
   * conclave_transcribed_audio_seconds_total, conclave_transcriber_failures_total.
   */
  trackTranscribers(source: () => TranscribersSnapshot): void {
    const registers = [this.registry];
    new Gauge({
      name: 'conclave_transcriber_robots', help: 'Running transcriber robots, by recognizer engine', labelNames: ['engine'], registers,
      collect() {
        this.reset();
        for (const [engine, n] of Object.entries(source().robots)) this.set({ engine }, n);
      },
    });
    this.#totalOf('conclave_transcribed_audio_seconds_total', 'Audio fed to the transcriber robots\' recognizers, seconds', () => source().audioSeconds);
    this.#totalOf('conclave_transcriber_failures_total', 'Recognizer or decoder failures of transcriber robots (each is retried, up to 5 a minute)', () => source().failures);
    this.#labelledTotals('conclave_transcriber_quota_refusals_total', 'Transcriber robots refused by a quota, by scope (app, node)', 'scope', () => source().quotaRefusals);
  }

  /**
   * WHEP / WHIP metrics, read from `source` when scraped: conclave_whep_sessions{kind} (whep, mix, whip) and
   * conclave_whep_quota_refusals_total{scope} (app, node: limits.whepSessionsPerApp / PerNode).
   */
  trackWhep(source: () => { sessions: Record<string, number>; refusals: Record<string, number> }): void {
    new Gauge({
      name: 'conclave_whep_sessions', help: 'Open WHEP playbacks (of a user, of a mix) and WHIP publishes, by kind', labelNames: ['kind'], registers: [this.registry],
      collect() {
        for (const [kind, n] of Object.entries(source().sessions)) this.set({ kind }, n);
      },
    });
    this.#labelledTotals('conclave_whep_quota_refusals_total', 'WHEP / WHIP sessions refused by a quota, by scope (app, node)', 'scope', () => source().refusals);
  }

  /** A counter with one label of running totals `read` when scraped (each only goes up). */
  #labelledTotals(name: string, help: string, label: string, read: () => Record<string, number>): void {
    const counted = new Map<string, number>();
    new Counter({
      name, help, labelNames: [label], registers: [this.registry],
      collect() {
        for (const [value, total] of Object.entries(read())) {
          const before = counted.get(value) ?? 0;
          this.inc({ [label]: value }, Math.max(0, total - before));
          counted.set(value, Math.max(before, total));
        }
      },
    });
  }

  /** A counter of a running total `read` when scraped (it only goes up). */
  #totalOf(name: string, help: string, read: () => number): void {
    let counted = 0;
    new Counter({
      name, help, registers: [this.registry],
      collect() {
        const value = read();
        this.inc(Math.max(0, value - counted));
        counted = Math.max(counted, value);
      },
    });
  }

  /** The metrics in Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    clearInterval(this.#sampler);
    this.#unobserve();
    this.registry.clear();
  }
}

/** docs/behaviour.md §9: keys are classed by their last three digits: 0-599 count, 600-699 error code, 700-799 enum, 800-899 number. */
export function keyClass(key: number): string {
  const tail = Math.abs(Math.trunc(key)) % 1000;
  if (tail < 600) return 'count';
  if (tail < 700) return 'error_code';
  if (tail < 800) return 'enum';
  if (tail < 900) return 'number';
  return 'other';
}
