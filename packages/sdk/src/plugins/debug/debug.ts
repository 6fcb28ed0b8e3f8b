import type { PluginContext } from '../context/index.js';
import { DebugView, type Rows } from './view.js';

/** The public client API the dialog listens to. */
interface EventSource {
  on(event: string, handler: (data: never) => void): unknown;
  off(event: string, handler: (data: never) => void): unknown;
}

interface StreamStats {
  audio?: { bitrate: number; audioLevel: number };
  video?: { width: number; height: number; frameRate: number; bitrate: number; videoType: string }[];
}
interface Statistics {
  rtt: number;
  upLoss: number;
  downLoss: number;
  localStatistics: StreamStats;
  remoteStatistics: (StreamStats & { userId: string })[];
}

function streamRows(prefix: string, stats: StreamStats): Rows {
  const rows: Rows = [];
  if (stats.audio) rows.push([`${prefix} audio`, `${stats.audio.bitrate} kbit/s, level ${stats.audio.audioLevel.toFixed(2)}`]);
  for (const v of stats.video ?? []) rows.push([`${prefix} ${v.videoType}`, `${v.width}×${v.height} ${v.frameRate} fps ${v.bitrate} kbit/s`]);
  return rows;
}

/**
 * The debug dialog (built in, auto-started by `?trtcDebug` or the session-storage flag): live room, user,
 * connection and publish states, per-stream statistics and recent log lines, with copy / download of the log.
 */
export class Debug {
  static readonly Name = 'Debug';
  readonly #ctx: PluginContext;
  #view: DebugView | undefined;
  #connection = 'DISCONNECTED';
  readonly #publish = new Map<string, string>();
  readonly #listeners: [string, (data: never) => void][] = [];
  #unlog: (() => void) | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(context: PluginContext) {
    this.#ctx = context;
  }

  #client(): EventSource {
    return this.#ctx.client as EventSource;
  }

  #logText(): string {
    return this.#ctx.log.recent().join('\n');
  }

  start(): void {
    if (this.#view) return;
    this.#view = new DebugView(['Room', 'States', 'Statistics'], {
      copy: () => void navigator.clipboard?.writeText(this.#logText()).catch(() => undefined),
      download: () => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([this.#logText()], { type: 'text/plain' }));
        link.download = `trtc-log-${Date.now()}.txt`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      },
      close: () => this.stop(),
    });
    const listen = <T>(event: string, handler: (data: T) => void) => {
      const h = handler as (data: never) => void;
      this.#client().on(event, h);
      this.#listeners.push([event, h]);
    };
    listen<{ state: string }>('connection-state-changed', ({ state }) => {
      this.#connection = state;
      this.#renderStates();
    });
    listen<{ mediaType: string; state: string }>('publish-state-changed', ({ mediaType, state }) => {
      this.#publish.set(mediaType, state);
      this.#renderStates();
    });
    listen<Statistics>('statistics', (stats) => {
      this.#view?.render('Statistics', [
        ['rtt', `${stats.rtt} ms`], ['loss up / down', `${stats.upLoss}% / ${stats.downLoss}%`],
        ...streamRows('local', stats.localStatistics),
        ...stats.remoteStatistics.flatMap((remote) => streamRows(remote.userId, remote)),
      ]);
    });
    this.#unlog = this.#ctx.log.onLine(() => this.#view?.showLog(this.#ctx.log.recent()));
    this.#view.showLog(this.#ctx.log.recent());
    this.#renderStates();
    // The room's identity changes on enterRoom / exitRoom without an event of its own.
    this.#timer = setInterval(() => this.#renderRoom(), 1000);
    this.#renderRoom();
    this.#ctx.log.info('debug dialog shown');
  }

  #renderRoom(): void {
    const room = this.#ctx.room();
    this.#view?.render('Room', [['sdkAppId', String(room.sdkAppId || '—')], ['roomId', String(room.roomId || '—')], ['userId', room.userId || '—']]);
  }

  #renderStates(): void {
    this.#view?.render('States', [['connection', this.#connection], ...[...this.#publish].map(([media, state]): [string, string] => [`publish ${media}`, state])]);
  }

  stop(): void {
    for (const [event, handler] of this.#listeners.splice(0)) this.#client().off(event, handler);
    this.#unlog?.();
    clearInterval(this.#timer);
    this.#view?.remove();
    this.#view = undefined;
  }

  destroy(): void {
    this.stop();
  }
}
