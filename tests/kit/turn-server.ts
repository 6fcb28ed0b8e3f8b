import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { whenReady } from './child-output.js';
import { freePort, freeUdpPort } from './ports.js';

/**
 * The address coturn relays from: this machine's first external IPv4 interface when it has one. A TURN
 * server relays from a routable address; Janus (libnice) answers no connectivity check coming from a
 * loopback source, so a relay on 127.0.0.1 would reach the embedded engine only.
 */
function relayAddress(): string {
  const external = Object.values(networkInterfaces()).flat().find((i) => i?.family === 'IPv4' && !i.internal);
  return external?.address ?? '127.0.0.1';
}

/** How clients authenticate: coturn's long-term user (the default) or TURN REST credentials (use-auth-secret). */
export type TurnAuth = { kind: 'user' } | { kind: 'secret'; secret: string };

/** Where coturn listens (default 127.0.0.1), relays from (default relayAddress()) and its relay port range (default: one range per auth kind). */
export interface TurnListen {
  ip?: string;
  relayIp?: string;
  minPort?: number;
  maxPort?: number;
}

/**
 * Debian's coturn listening on loopback, started by the test and stopped after it. Relaying to loopback
 * peers is allowed, since the SFU is on this machine.
 */
export class TurnServer {
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly url: string;
  /** The same server over TCP (coturn listens on both). */
  readonly tcpUrl: string;
  readonly username = 'conclave';
  readonly credential = 'conclave-turn-secret';

  private constructor(child: ChildProcess, dir: string, ip: string, port: number) {
    this.#child = child;
    this.#dir = dir;
    this.url = `turn:${ip}:${port}?transport=udp`;
    this.tcpUrl = `turn:${ip}:${port}?transport=tcp`;
  }

  static async start(auth: TurnAuth = { kind: 'user' }, listen: TurnListen = {}): Promise<TurnServer> {
    const ip = listen.ip ?? '127.0.0.1';
    const port = await freeUdpPort();
    const cliPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'conclave-turn-'));
    const child = spawn('turnserver', [
      '-n', '--no-tls', '--no-dtls', `--listening-ip=${ip}`, `--listening-port=${port}`, `--relay-ip=${listen.relayIp ?? relayAddress()}`,
      // Separate relay ports per kind, so the two TURN tests could run side by side.
      ...(listen.minPort && listen.maxPort ? [`--min-port=${listen.minPort}`, `--max-port=${listen.maxPort}`]
        : auth.kind === 'secret' ? ['--min-port=49401', '--max-port=49600'] : ['--min-port=49160', '--max-port=49400']), '--realm=conclave.test',
      ...(auth.kind === 'secret' ? ['--use-auth-secret', `--static-auth-secret=${auth.secret}`] : ['--lt-cred-mech', '--user=conclave:conclave-turn-secret']),
      '--allow-loopback-peers', '--no-multicast-peers', '--cli-port', String(cliPort), '--no-cli', `--pidfile=${join(dir, 'turn.pid')}`,
      `--userdb=${join(dir, 'turndb')}`, '--log-file=stdout', '--simple-log',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    await whenReady(child, { ready: /Total General servers|IPv4. UDP listener opened/, name: 'coturn', install: 'coturn' });
    return new TurnServer(child, dir, ip, port);
  }

  async stop(): Promise<void> {
    // A child killed by a signal has exitCode null but a signalCode: stopped already (a second stop).
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      const exited = new Promise((resolve) => this.#child.once('exit', resolve));
      this.#child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
