import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Logger } from 'pino';
import { freePort } from '../../lifecycle/free-port.js';
import { watchParent } from '../child-watchdog.js';
import { findJanus, janusLibDir, janusMainConfig, janusVideoRoomConfig, janusWebSocketConfig } from './janus-config.js';

/** Where a running Janus answers. */
export interface JanusEndpoint {
  url: string;
  secret?: string;
  /** Its admin API (ws://…, with the admin secret), when the engine may use it. */
  admin?: { url: string; secret: string };
}

/** Settings of a spawned Janus. */
export interface JanusProcessOptions {
  /** Where a spawned Janus gathers ICE candidates. */
  iceAddress?: string;
  /** Public address advertised in candidates (1:1 NAT): Janus's nat_1_1_mapping. */
  announcedAddress?: string;
  /** UDP ports for a spawned Janus's ICE/RTP. */
  portRange?: [number, number];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

/** How long Janus may take to open its WebSocket port (CONCLAVE_JANUS_START_TIMEOUT_MS: e.g. under valgrind, longer). */
const START_TIMEOUT_MS = 15_000;
/** Restarts closer together than this are delayed (a Janus that crashes at start must not spin). */
const RESTART_BACKOFF_MS = 1000;

/**
 * Janus's environment: ours, with CONCLAVE_JANUS_LIBRARY_PATH (a folder of shared libraries, e.g. a libsrtp2
 * built with OpenSSL: Debian's goes through NSS, which costs ~8k instructions per packet, most of Janus's
 * per-packet work; bench/README.md "Janus: where a forwarded packet's instructions go") ahead of the system's.
 */
function janusEnv(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const first = env?.CONCLAVE_JANUS_LIBRARY_PATH;
  if (!first) return process.env;
  return { ...process.env, LD_LIBRARY_PATH: [first, process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter) };
}

/**
 * A Janus the server runs itself: a generated configuration in a temp folder (loopback-only
 * WebSocket API on a free port, random API and admin secrets, only VideoRoom and the WebSocket
 * transport), started with `janus -F`, and supervised: when it exits unexpectedly the exit is
 * logged, it is started again (same folder, a fresh port) and `onRestart` is told the new endpoint.
 */
export class JanusProcess {
  readonly #options: JanusProcessOptions;
  readonly #binary: string;
  readonly #libDir: string;
  readonly #dir: string;
  readonly #apiSecret = randomBytes(24).toString('hex');
  readonly #adminSecret = randomBytes(24).toString('hex');
  #child: ChildProcess | undefined;
  #stopping = false;
  #lastStart = 0;
  #onRestart: ((endpoint: JanusEndpoint) => void) | undefined;

  /** Checks that Janus is installed (throws JanusMissingError naming the Debian package) and prepares its folder. */
  constructor(options: JanusProcessOptions) {
    this.#options = options;
    this.#binary = findJanus(options.env);
    this.#libDir = janusLibDir(options.env);
    this.#dir = mkdtempSync(join(tmpdir(), 'conclave-janus-'));
    for (const [kind, file] of [['plugins', 'libjanus_videoroom.so'], ['transports', 'libjanus_websockets.so']] as const) {
      mkdirSync(join(this.#dir, kind));
      symlinkSync(join(this.#libDir, kind, file), join(this.#dir, kind, file));
    }
    mkdirSync(join(this.#dir, 'none'));
  }

  /** The process id of the running Janus (for tests and CPU accounting). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Called with the new endpoint after a supervised restart. */
  onRestart(listener: (endpoint: JanusEndpoint) => void): void {
    this.#onRestart = listener;
  }

  /** Starts Janus; resolves once its WebSocket API listens. */
  async start(): Promise<JanusEndpoint> {
    let lastError: unknown;
    // A port picked free may be taken by the time Janus binds it: try a few.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await this.#startOnce(await freePort(), await freePort());
      } catch (error) {
        lastError = error; // thrown after the last attempt
        if (this.#stopping) break;
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  async #startOnce(wsPort: number, adminWsPort: number): Promise<JanusEndpoint> {
    const options = { dir: this.#dir, wsPort, adminWsPort, apiSecret: this.#apiSecret, adminSecret: this.#adminSecret, iceAddress: this.#options.iceAddress, announcedAddress: this.#options.announcedAddress, portRange: this.#options.portRange };
    writeFileSync(join(this.#dir, 'janus.jcfg'), janusMainConfig(options));
    writeFileSync(join(this.#dir, 'janus.transport.websockets.jcfg'), janusWebSocketConfig(options));
    writeFileSync(join(this.#dir, 'janus.plugin.videoroom.jcfg'), janusVideoRoomConfig());
    this.#lastStart = Date.now();
    const child = spawn(this.#binary, ['-F', this.#dir, '-C', join(this.#dir, 'janus.jcfg'), '--disable-colors'], { stdio: ['ignore', 'pipe', 'pipe'], env: janusEnv(this.#options.env) });
    this.#child = child;
    watchParent(child);
    const log = this.#options.logger;
    let tail = '';
    const ready = new Promise<void>((resolve, reject) => {
      const startTimeoutMs = Number(this.#options.env?.CONCLAVE_JANUS_START_TIMEOUT_MS) || START_TIMEOUT_MS;
      const timer = setTimeout(() => reject(new Error(`Janus did not open its API within ${startTimeoutMs} ms: ${tail}`)), startTimeoutMs);
      const onOutput = (chunk: Buffer) => {
        const text = chunk.toString();
        tail = (tail + text).slice(-2000);
        for (const line of text.split('\n')) {
          if (/\[(ERR|FATAL)\]/.test(line)) log.warn({ janus: line.trim() }, 'janus');
        }
      };
      // Its log level hides the "server started" line: readiness is the port accepting connections.
      const probe = () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const socket = connect(wsPort, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          clearTimeout(timer);
          resolve();
        });
        socket.once('error', () => {
          socket.destroy();
          probeTimer = setTimeout(probe, 50);
        });
      };
      let probeTimer = setTimeout(probe, 50);
      child.stdout?.on('data', onOutput);
      child.stderr?.on('data', onOutput);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        clearTimeout(probeTimer);
        reject(new Error(`Janus exited at start (${signal ?? code}): ${tail}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    try {
      await ready;
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    child.removeAllListeners('exit');
    child.once('exit', (code, signal) => this.#exited(child, code, signal));
    log.info({ pid: child.pid, port: wsPort, dir: this.#dir }, 'janus started');
    return { url: `ws://127.0.0.1:${wsPort}`, secret: this.#apiSecret, admin: { url: `ws://127.0.0.1:${adminWsPort}`, secret: this.#adminSecret } };
  }

  #exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#child !== child) return;
    this.#child = undefined;
    if (this.#stopping) return;
    this.#options.logger.error({ code, signal }, 'janus exited unexpectedly; restarting it (clients reconnect their media)');
    this.#scheduleRestart();
  }

  #scheduleRestart(): void {
    const wait = Math.max(0, this.#lastStart + RESTART_BACKOFF_MS - Date.now());
    setTimeout(() => {
      if (this.#stopping) return;
      this.start().then((endpoint) => this.#onRestart?.(endpoint), (error: unknown) => {
        this.#options.logger.error({ err: error }, 'janus restart failed; trying again');
        this.#scheduleRestart();
      });
    }, wait).unref();
  }

  /** Stops Janus and removes its folder. */
  async stop(): Promise<void> {
    this.#stopping = true;
    const child = this.#child;
    this.#child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
