import { readFileSync } from 'node:fs';
import { EngineError, type MediaServerReport } from '../media-engine.js';
import { JanusAdmin } from './janus-admin.js';
import { JanusClient } from './janus-client.js';
import { JanusProcess, type JanusEndpoint, type JanusProcessOptions } from './janus-process.js';

/** How to reach Janus: spawn one (default, with these settings) or attach to a running one. */
export interface JanusConnectionOptions extends JanusProcessOptions {
  /** ws:// URL of a running Janus's WebSocket API (CONCLAVE_JANUS_URL); unset: spawn one. */
  url?: string;
  /** Its API secret, if it has one (CONCLAVE_JANUS_SECRET). */
  secret?: string;
}

/** How long an engine call waits for Janus to be (back) up, e.g. during a restart. */
const READY_TIMEOUT_MS = 20_000;
/** Pause between attempts to reach an attached Janus that went away. */
const RECONNECT_MS = 1000;

/**
 * The engine's session with Janus: a spawned Janus (supervised: restarted when it dies) or a running one
 * reached at its URL (reached again when it goes away). When the session is lost, every Janus handle is gone
 * with it: `lost` tells the engine, and engine calls wait (bounded) for the next session.
 */
export class JanusConnection {
  readonly #options: JanusConnectionOptions;
  readonly #process: JanusProcess | undefined;
  readonly #lost: () => void;
  #client: JanusClient | undefined;
  /** Janus's admin API (a spawned Janus only): the cross-check of inspect(). */
  #admin: JanusAdmin | undefined;
  #waiters: ((client: JanusClient) => void)[] = [];
  #closed = false;

  /** @param lost called when the session with Janus is lost (not on close). */
  constructor(options: JanusConnectionOptions, lost: () => void) {
    this.#options = options;
    this.#lost = lost;
    this.#process = options.url ? undefined : new JanusProcess(options);
  }

  /** Spawns (or reaches) Janus and opens a session; throws JanusMissingError when Janus is not installed. */
  async start(): Promise<void> {
    const endpoint = this.#process ? await this.#process.start() : { url: this.#options.url!, secret: this.#options.secret };
    this.#process?.onRestart((restarted) => {
      this.#connect(restarted).catch((error: unknown) => this.#options.logger.error({ err: error }, 'janus session after restart failed'));
    });
    await this.#connect(endpoint);
  }

  /** The spawned Janus's process id (none when attached to a running Janus). */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** The current session, if it is open. */
  get client(): JanusClient | undefined {
    return this.#client && !this.#client.closed ? this.#client : undefined;
  }

  /** The spawned Janus's resident set in bytes (undefined when attached to a Janus elsewhere, or unknown). */
  get residentBytes(): number | undefined {
    return residentBytes(this.#process?.pid);
  }

  async #connect(endpoint: JanusEndpoint): Promise<void> {
    const client = await JanusClient.connect(endpoint.url, endpoint.secret);
    if (this.#closed) {
      client.close();
      return;
    }
    client.onClose(() => this.#onClose(client, endpoint));
    this.#client = client;
    this.#admin = endpoint.admin ? new JanusAdmin(endpoint.admin.url, endpoint.admin.secret) : undefined;
    for (const resolve of this.#waiters.splice(0)) resolve(client);
  }

  /** Janus went away: every handle and room with it. */
  #onClose(client: JanusClient, endpoint: JanusEndpoint): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#lost();
    if (this.#process || this.#closed) return; // the supervisor restarts it and calls #connect
    const retry = () => {
      if (this.#closed) return;
      this.#connect(endpoint).catch((error: unknown) => {
        this.#options.logger.debug({ err: error }, `janus: reconnecting to the external Janus failed; trying again in ${RECONNECT_MS} ms`);
        setTimeout(retry, RECONNECT_MS).unref();
      });
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  /** The current session, waiting (bounded) while Janus restarts. */
  ready(): Promise<JanusClient> {
    if (this.#closed) return Promise.reject(new EngineError('closed', 'media engine closed'));
    if (this.#client && !this.#client.closed) return Promise.resolve(this.#client);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new EngineError('unavailable', 'Janus is not available')), READY_TIMEOUT_MS);
      this.#waiters.push((client) => {
        clearTimeout(timer);
        resolve(client);
      });
    });
  }

  /** Janus's own account (its admin API): its sessions, handles and PeerConnections up; undefined when not spawned here or not answering. */
  async inspect(): Promise<MediaServerReport | undefined> {
    return this.client ? this.#admin?.report() : undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#client?.close();
    this.#client = undefined;
    await this.#process?.stop();
  }
}

/** A process's resident set size in bytes (Linux /proc), undefined when unknown. */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined; // the process exited meanwhile, or no /proc: unknown, as documented
  }
}
