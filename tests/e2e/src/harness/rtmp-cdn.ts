import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../kit/ports.js';

/** Debian's nginx with libnginx-mod-rtmp. */
const NGINX = '/usr/sbin/nginx';
const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';

/** One publish connection nginx told us about (on_publish / on_publish_done). */
export interface PublishEvent {
  call: 'publish' | 'publish_done';
  name: string;
  at: number;
}

/**
 * A loopback "CDN": nginx's RTMP module in a temporary prefix, with on_publish / on_publish_done hooks to a
 * local HTTP server, so tests see each RTMP publish connection open and close.
 */
export class RtmpCdn {
  readonly #nginx: ChildProcess;
  readonly #hooks: Server;
  readonly #dir: string;
  readonly port: number;
  readonly events: PublishEvent[] = [];

  private constructor(nginx: ChildProcess, hooks: Server, dir: string, port: number, events: PublishEvent[]) {
    this.#nginx = nginx;
    this.#hooks = hooks;
    this.#dir = dir;
    this.port = port;
    this.events = events;
  }

  static async start(): Promise<RtmpCdn> {
    const events: PublishEvent[] = [];
    const hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const call = form.get('call');
        if (call === 'publish' || call === 'publish_done') events.push({ call, name: form.get('name') ?? '', at: Date.now() });
        res.writeHead(200);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const hookPort = (hooks.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'conclave-rtmp-'));
    mkdirSync(join(dir, 'logs'));
    const port = await freePort(); // nginx cannot listen on port 0: a free one is picked and released
    writeFileSync(join(dir, 'nginx.conf'), `load_module ${RTMP_MODULE};
daemon off;
master_process off;
error_log ${dir}/logs/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 128; }
rtmp {
  server {
    listen 127.0.0.1:${port};
    application live {
      live on;
      record off;
      on_publish http://127.0.0.1:${hookPort}/hook;
      on_publish_done http://127.0.0.1:${hookPort}/hook;
    }
  }
}
`);
    const nginx = spawn(NGINX, ['-p', dir, '-e', `${dir}/logs/error.log`, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    const cdn = new RtmpCdn(nginx, hooks, dir, port, events);
    // Ready when the port accepts connections.
    const until = Date.now() + 10_000;
    for (;;) {
      const ok = await new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => { socket.destroy(); resolve(true); });
        socket.once('error', () => resolve(false));
        socket.connect(port, '127.0.0.1');
      });
      if (ok) break;
      if (Date.now() > until || nginx.exitCode !== null) throw new Error('nginx (RTMP) did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    return cdn;
  }

  /** The RTMP URL of a stream name. */
  url(name: string): string {
    return `rtmp://127.0.0.1:${this.port}/live/${name}`;
  }

  /** Publish connections opened for a stream so far. */
  publishes(name: string): number {
    return this.events.filter((e) => e.call === 'publish' && e.name === name).length;
  }

  /** Publish connections of a stream that ended so far. */
  publishesDone(name: string): PublishEvent[] {
    return this.events.filter((e) => e.call === 'publish_done' && e.name === name);
  }

  async close(): Promise<void> {
    this.#nginx.kill('SIGTERM');
    await new Promise<void>((resolve) => { if (this.#nginx.exitCode !== null) resolve(); else this.#nginx.once('exit', () => resolve()); });
    this.#hooks.closeAllConnections();
    await new Promise<void>((resolve) => this.#hooks.close(() => resolve()));
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
