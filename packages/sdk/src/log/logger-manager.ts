import { currentLevel, LOG_LEVEL, log, setLevel, uploadIsEnabled, type LogLevel } from './logger.js';

/** What createLogger accepts: the original's fields (all optional; unknown ones ignored). */
export interface ScopedLoggerOptions {
  id?: string;
  userId?: string;
  sdkAppId?: number;
  remoteUserId?: string;
  isLocal?: boolean;
  type?: string;
  /** A logger this one's id is prefixed with. */
  parent?: ScopedLogger;
}

const WRITERS: Record<number, (...args: unknown[]) => void> = {
  [LOG_LEVEL.TRACE]: log.debug, [LOG_LEVEL.DEBUG]: log.debug, [LOG_LEVEL.INFO]: log.info,
  [LOG_LEVEL.WARN]: log.warn, [LOG_LEVEL.ERROR]: log.error,
};

/**
 * A logger of a part of an app (libraries built on the original make theirs through `TRTC._loggerManager`):
 * its lines go to the SDK's console and log upload, prefixed with its id and user.
 */
export class ScopedLogger {
  id: string;
  userId: string;
  sdkAppId: number;
  remoteUserId: string;
  isLocal: boolean;
  type: string;
  private _parentPath = '';

  constructor(options: ScopedLoggerOptions = {}) {
    this.id = typeof options.id === 'string' ? options.id : '';
    this.userId = typeof options.userId === 'string' ? options.userId : '';
    this.sdkAppId = typeof options.sdkAppId === 'number' ? options.sdkAppId : 0;
    this.remoteUserId = typeof options.remoteUserId === 'string' ? options.remoteUserId : '';
    this.isLocal = typeof options.isLocal === 'boolean' ? options.isLocal : true;
    this.type = this.isLocal || typeof options.type !== 'string' ? '' : options.type;
    if (options.parent instanceof ScopedLogger) this.bindParent(options.parent);
  }

  /** The id with its parents' ids ('parent-child'). */
  getFullId(): string {
    return this._parentPath && this.id ? `${this._parentPath}-${this.id}` : this._parentPath || this.id;
  }

  /** Changes the fields given (userId, sdkAppId, id, remoteUserId…): e.g. once the user is known. */
  update(options: Omit<ScopedLoggerOptions, 'parent'>): void {
    if (typeof options !== 'object' || options === null) return;
    if (typeof options.id === 'string') this.id = options.id;
    if (typeof options.userId === 'string') this.userId = options.userId;
    if (typeof options.sdkAppId === 'number') this.sdkAppId = options.sdkAppId;
    if (typeof options.remoteUserId === 'string') this.remoteUserId = options.remoteUserId;
    if (typeof options.isLocal === 'boolean') this.isLocal = options.isLocal;
    if (typeof options.type === 'string') this.type = options.type;
  }

  /** A logger under this one, inheriting the fields not given. */
  createChild(options: Omit<ScopedLoggerOptions, 'parent'> = {}): ScopedLogger {
    return new ScopedLogger({
      id: options.id, userId: options.userId ?? this.userId, sdkAppId: options.sdkAppId ?? this.sdkAppId,
      remoteUserId: options.remoteUserId ?? this.remoteUserId, isLocal: options.isLocal ?? this.isLocal,
      type: options.type ?? this.type, parent: this,
    });
  }

  /** Prefixes this logger's lines with `parent`'s id; takes its user where this one has none. */
  bindParent(parent: ScopedLogger): void {
    this._parentPath = parent.getFullId();
    this.userId = parent.userId || this.userId;
    this.sdkAppId = parent.sdkAppId || this.sdkAppId;
  }

  setUserId(userId: string): void {
    this.update({ userId });
  }

  setSdkAppId(sdkAppId: number): void {
    this.update({ sdkAppId });
  }

  /** Writes a line at a level (0 trace … 4 error; out of range: info). */
  log(level: number, args: unknown[] | unknown): void {
    const list = Array.isArray(args) ? args : [args];
    const user = this.isLocal ? this.userId : this.remoteUserId;
    const tag = `[${this.isLocal ? '↑' : '↓'}${this.type && this.type !== 'main' ? '*' : ''}${this.getFullId()}${user ? `|${user}` : ''}]`;
    (WRITERS[level] ?? log.info)(tag, ...list);
  }

  debug(...args: unknown[]): void { this.log(LOG_LEVEL.DEBUG, args); }
  info(...args: unknown[]): void { this.log(LOG_LEVEL.INFO, args); }
  warn(...args: unknown[]): void { this.log(LOG_LEVEL.WARN, args); }
  error(...args: unknown[]): void { this.log(LOG_LEVEL.ERROR, args); }
}

const root = new ScopedLogger();

/**
 * `TRTC._loggerManager`: undocumented in the original's typings, but libraries built on it by its vendor read it
 * when they load and make their loggers with createLogger({ id, … }).
 */
export const loggerManager = Object.freeze({
  /** A logger for a part of an app; `parent` prefixes its id. */
  createLogger(options: ScopedLoggerOptions = {}): ScopedLogger {
    return new ScopedLogger(typeof options === 'object' && options !== null ? options : {});
  },
  /** Same as TRTC.setLogLevel. */
  setLogLevel(level: LogLevel): void {
    if (Number.isInteger(level) && level >= 0 && level <= 5) setLevel(level, uploadIsEnabled());
  },
  enableUploadLog(): void { setLevel(currentLevel(), true); },
  disableUploadLog(): void { setLevel(currentLevel(), false); },
  log: (level: number, args: unknown[]) => root.log(level, args),
  debug: (...args: unknown[]) => root.debug(...args),
  info: (...args: unknown[]) => root.info(...args),
  warn: (...args: unknown[]) => root.warn(...args),
  error: (...args: unknown[]) => root.error(...args),
});
