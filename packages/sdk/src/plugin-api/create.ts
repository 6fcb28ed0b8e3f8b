import { RtcError, type RtcErrorInit } from '../errors/rtc-error.js';
import { addLogSink, formatEntry, log } from '../log/logger.js';
import type { AudioBus } from './audio.js';
import type { VideoBus } from './video.js';
import type { FramePluginContext, PluginContext, PluginLog, PluginRoomInfo } from './index.js';
import type { PluginSignal } from './room.js';
import { remoteVideoContext, type RemoteVideoPluginEvent } from './remote-video.js';

/** How many recent log lines a client keeps for plugins (the debug dialog shows and exports them). */
const RECENT_LINES = 300;

/** The log side of the context: the SDK's logger plus a ring of recent lines. */
export class PluginLogRing implements PluginLog {
  private readonly _lines: string[] = [];
  private readonly _listeners = new Set<(line: string) => void>();
  private readonly _remove: () => void;

  constructor() {
    this._remove = addLogSink((entry) => {
      const line = formatEntry(entry);
      this._lines.push(line);
      if (this._lines.length > RECENT_LINES) this._lines.shift();
      for (const listener of this._listeners) listener(line);
    });
  }

  info(...args: unknown[]): void {
    log.info(...args);
  }

  warn(...args: unknown[]): void {
    log.warn(...args);
  }

  error(...args: unknown[]): void {
    log.error(...args);
  }

  recent(): string[] {
    return [...this._lines];
  }

  onLine(listener: (line: string) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  close(): void {
    this._remove();
    this._listeners.clear();
  }
}

/** What the client supplies to build its plugins' context. */
export interface ContextSources {
  client: unknown;
  serverOrigin: string;
  audio: AudioBus;
  video: VideoBus;
  log: PluginLogRing;
  room(): PluginRoomInfo;
  signal: PluginSignal;
  frames: FramePluginContext;
  emit(event: RemoteVideoPluginEvent, data: unknown): void;
}

/** The context handed to one plugin (its own assetsPath). */
export function createPluginContext(sources: ContextSources, assetsPath: string): PluginContext {
  return {
    client: sources.client,
    assetsPath: assetsPath.replace(/\/+$/, ''),
    serverOrigin: sources.serverOrigin,
    sdkBase: `${sources.serverOrigin}/sdk`,
    errors: (init) => new RtcError(init as RtcErrorInit),
    log: sources.log,
    room: sources.room,
    audio: sources.audio,
    video: sources.video,
    signal: sources.signal,
    remoteVideo: remoteVideoContext(sources.emit),
    frames: sources.frames,
  };
}
