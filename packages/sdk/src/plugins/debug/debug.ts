import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';
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
  private readonly _ctx: PluginContext;
  private _view: DebugView | undefined;
  private _connection = 'DISCONNECTED';
  private readonly _publish = new Map<string, string>();
  private readonly _listeners: [string, (data: never) => void][] = [];
  private _unlog: (() => void) | undefined;
  private _timer: ReturnType<typeof setInterval> | undefined;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  private _client(): EventSource {
    return this._ctx.client as EventSource;
  }

  private _logText(): string {
    return this._ctx.log.recent().join('\n');
  }

  start(): void {
    if (this._view) return;
    this._view = new DebugView(['Room', 'States', 'Statistics'], {
      copy: () => void navigator.clipboard?.writeText(this._logText()).catch(() => undefined), // clipboard refused (no focus or permission): the download button saves the same text
      download: () => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([this._logText()], { type: 'text/plain' }));
        link.download = `trtc-log-${Date.now()}.txt`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      },
      close: () => this.stop(),
    });
    const listen = <T>(event: string, handler: (data: T) => void) => {
      const h = handler as (data: never) => void;
      this._client().on(event, h);
      this._listeners.push([event, h]);
    };
    listen<{ state: string }>('connection-state-changed', ({ state }) => {
      this._connection = state;
      this._renderStates();
    });
    listen<{ mediaType: string; state: string }>('publish-state-changed', ({ mediaType, state }) => {
      this._publish.set(mediaType, state);
      this._renderStates();
    });
    listen<Statistics>('statistics', (stats) => {
      this._view?.render('Statistics', [
        ['rtt', `${stats.rtt} ms`], ['loss up / down', `${stats.upLoss}% / ${stats.downLoss}%`],
        ...streamRows('local', stats.localStatistics),
        ...stats.remoteStatistics.flatMap((remote) => streamRows(remote.userId, remote)),
      ]);
    });
    this._unlog = this._ctx.log.onLine(() => this._view?.showLog(this._ctx.log.recent()));
    this._view.showLog(this._ctx.log.recent());
    this._renderStates();
    // The room's identity changes on enterRoom / exitRoom without an event of its own.
    this._timer = setInterval(() => this._renderRoom(), 1000);
    this._renderRoom();
    this._ctx.log.info('debug dialog shown');
  }

  private _renderRoom(): void {
    const room = this._ctx.room();
    this._view?.render('Room', [['sdkAppId', String(room.sdkAppId || '—')], ['roomId', String(room.roomId || '—')], ['userId', room.userId || '—']]);
  }

  private _renderStates(): void {
    this._view?.render('States', [['connection', this._connection], ...[...this._publish].map(([media, state]): [string, string] => [`publish ${media}`, state])]);
  }

  /**
   * 5.17's `updatePlugin('Debug', { visible })`: hides or shows the dialog (statistics keep updating while
   * hidden; showing a dialog that is not open opens it). INVALID_PARAMETER when visible is not a boolean.
   */
  update(options?: { visible?: boolean }): void {
    const visible = (options as { visible?: unknown } | undefined)?.visible;
    if (typeof visible !== 'boolean') {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.TYPE, message: 'updatePlugin(\'Debug\') needs { visible: boolean }', functionName: 'updatePlugin' });
    }
    if (visible && !this._view) this.start();
    if (this._view) this._view.root.style.display = visible ? '' : 'none';
  }

  stop(): void {
    for (const [event, handler] of this._listeners.splice(0)) this._client().off(event, handler);
    this._unlog?.();
    clearInterval(this._timer);
    this._view?.remove();
    this._view = undefined;
  }

  destroy(): void {
    this.stop();
  }
}
