import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_PATH } from './browser.js';

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/**
 * A network namespace joined to this host by a veth pair: a second "machine" whose whole network
 * (signalling and media) a test can cut with iptables and restore — a real fault, not a mock.
 * Needs root, iproute2 and iptables (.ci/run installs them).
 */
export class NetNamespace {
  readonly name: string;
  /** This host's address on the link. */
  readonly hostIp: string;
  /** The namespace's address. */
  readonly nsIp: string;
  /** The namespace's end of the veth pair. */
  readonly nsIf: string;
  /** This host's end of the veth pair (where the namespace's downlink can be shaped). */
  readonly hostIf: string;
  readonly #dir: string;
  #cut = false;

  private constructor(name: string, hostIp: string, nsIp: string, nsIf: string, hostIf: string) {
    this.name = name;
    this.nsIf = nsIf;
    this.hostIf = hostIf;
    this.hostIp = hostIp;
    this.nsIp = nsIp;
    this.#dir = mkdtempSync(join(tmpdir(), 'conclave-netns-'));
  }

  /** Creates namespace number `index` (1–250); a leftover of a crashed run is replaced. */
  static create(index: number): NetNamespace {
    const name = `conclave-e2e-${index}`;
    const hostIf = `cvh${index}`;
    const nsIf = `cvn${index}`;
    const subnet = `10.231.${index}`;
    try {
      run('ip', ['netns', 'del', name]);
    } catch {
      // none left over
    }
    try {
      run('ip', ['link', 'del', hostIf]);
    } catch {
      // none left over
    }
    try {
      run('ip', ['netns', 'add', name]);
    } catch (error) {
      throw new Error(`cannot create a network namespace (needs root and iproute2): ${(error as Error).message}`);
    }
    run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run('ip', ['link', 'set', nsIf, 'netns', name]);
    run('ip', ['addr', 'add', `${subnet}.1/24`, 'dev', hostIf]);
    run('ip', ['link', 'set', hostIf, 'up']);
    run('ip', ['netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.2/24`, 'dev', nsIf]);
    run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', nsIf, 'up']);
    run('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
    return new NetNamespace(name, `${subnet}.1`, `${subnet}.2`, nsIf, hostIf);
  }

  /** Runs a command inside the namespace; returns its stdout. */
  exec(cmd: string, args: string[]): string {
    return run('ip', ['netns', 'exec', this.name, cmd, ...args]);
  }

  /** An executable that runs Chromium inside the namespace (for playwright's executablePath). */
  chromiumWrapper(): string {
    const path = join(this.#dir, 'chromium');
    writeFileSync(path, `#!/bin/sh\nexec ip netns exec ${this.name} ${CHROMIUM_PATH} "$@"\n`);
    chmodSync(path, 0o755);
    return path;
  }

  #rules: string[][] = [];

  /** Drops every packet in and out of the namespace (except its loopback): a silent outage. */
  cut(): void {
    this.#drop([]);
  }

  /** Drops UDP only (media), leaving TCP (signalling) up. */
  cutUdp(): void {
    this.#drop(['-p', 'udp']);
  }

  /**
   * Drops a random share (0–1) of the UDP in and out of the namespace, TCP untouched: a lossy media path with a
   * fast signalling. iptables' statistic match, so no netem is needed. restore() ends it.
   */
  loseUdp(share: number): void {
    this.#drop(['-p', 'udp', '-m', 'statistic', '--mode', 'random', '--probability', String(share)]);
  }

  #drop(match: string[]): void {
    if (this.#cut) return;
    this.#rules = [['INPUT', ...match, '!', '-i', 'lo', '-j', 'DROP'], ['OUTPUT', ...match, '!', '-o', 'lo', '-j', 'DROP']];
    for (const [chain, ...rule] of this.#rules) run('ip', ['netns', 'exec', this.name, 'iptables', '-I', chain, '1', ...rule]);
    this.#cut = true;
  }

  #delayed = false;

  /**
   * Makes the UDP packets leaving the namespace about `ms` late, TCP untouched: a media path slower than
   * signalling. With netem in the kernel: a fixed delay. Without (some VM kernels): a congested UDP
   * bottleneck, a token bucket far below the media's rate whose queue holds packets up to `ms` (and drops
   * the rest), which is how a slow path shows up in real networks. Either way a u32 filter sends IP
   * protocol 17 to a class of its own.
   */
  delayUdp(ms: number): 'netem' | 'bottleneck' {
    const tc = (...args: string[]) => run('ip', ['netns', 'exec', this.name, 'tc', ...args]);
    this.clearDelay();
    const dev = ['dev', this.nsIf];
    tc('qdisc', 'add', ...dev, 'root', 'handle', '1:', 'htb', 'default', '10');
    this.#delayed = true;
    tc('class', 'add', ...dev, 'parent', '1:', 'classid', '1:10', 'htb', 'rate', '10gbit');
    tc('class', 'add', ...dev, 'parent', '1:', 'classid', '1:20', 'htb', 'rate', '10gbit');
    let kind: 'netem' | 'bottleneck' = 'netem';
    try {
      tc('qdisc', 'add', ...dev, 'parent', '1:20', 'handle', '20:', 'netem', 'delay', `${ms}ms`);
    } catch {
      kind = 'bottleneck';
      tc('qdisc', 'add', ...dev, 'parent', '1:20', 'handle', '20:', 'tbf', 'rate', '64kbit', 'burst', '1600', 'latency', `${ms}ms`);
    }
    tc('filter', 'add', ...dev, 'parent', '1:', 'protocol', 'ip', 'u32', 'match', 'ip', 'protocol', '17', '0xff', 'flowid', '1:20');
    return kind;
  }

  /** Removes the delay of delayUdp. */
  clearDelay(): void {
    if (!this.#delayed) return;
    run('ip', ['netns', 'exec', this.name, 'tc', 'qdisc', 'del', 'dev', this.nsIf, 'root']);
    this.#delayed = false;
  }

  /** Ends the outage. */
  restore(): void {
    if (!this.#cut) return;
    for (const [chain, ...rule] of this.#rules) run('ip', ['netns', 'exec', this.name, 'iptables', '-D', chain, ...rule]);
    this.#cut = false;
  }

  destroy(): void {
    try {
      run('ip', ['netns', 'del', this.name]);
    } catch {
      // already gone
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
