import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { RoomRef } from '../ids/room-ref.js';
import { CALL_RECORDS_MIGRATION, CallRecordStore, USER_EVENTS_MIGRATION } from './call-record-store.js';
import { CALLBACKS_MIGRATION, CallbackStore } from './callback-store.js';
import { CLOUD_TASKS_MIGRATION, CloudTaskStore } from './cloud-task-store.js';
import { LogBytes, type LogBytesSnapshot, type LogQuota } from './log-quota.js';

/** A stored log upload (or server event). */
export interface StoredLog {
  id: number;
  sdkAppId: number;
  /** The room it is filed under (see RoomRef), when known. */
  roomRef: string | null;
  userId: string;
  /** The upload's cmdtype (jssdk_log, jssdk_event, …), or 'server_event' for what the server records. */
  cmdType: string;
  /** SDK version, or 'server'. */
  version: string;
  /** The client's timestamp, ms since the epoch, when it sent one. */
  clientTime: number | null;
  /** When the server received it, ms since the epoch. */
  receivedAt: number;
  log: string;
}

export type NewLog = Omit<StoredLog, 'id'>;

/** Which logs to read: always one app; the other filters are optional. Newest first. */
export interface LogQuery {
  sdkAppId: number;
  roomRef?: RoomRef;
  userId?: string;
  cmdType?: string;
  /** receivedAt ≥ from (ms). */
  from?: number;
  /** receivedAt < to (ms). */
  to?: number;
  /** Only logs with an id below this (the cursor of the previous page). */
  before?: number;
  limit: number;
}

/** A ban kept across restarts. */
export interface StoredBan {
  sdkAppId: number;
  roomRef: RoomRef;
  userId: string;
  /** Until when, ms since the epoch. */
  until: number;
  reason: string;
  createdAt: number;
}

type Database = BetterSqlite3.Database;
type DatabaseConstructor = typeof BetterSqlite3;

/** Raised when the embedded database cannot be opened. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/**
 * Raised by a write when the disk holding the database is full (SQLite's SQLITE_FULL, or ENOSPC): nothing of
 * the write was kept, the database stays whole, and writes work again once space is freed.
 */
export class StoreFullError extends StoreError {
  override name = 'StoreFullError';
}

/** A write: runs it, turning a full disk into StoreFullError. */
function writing<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || /database or disk is full|no space left/i.test(message ?? '')) {
      throw new StoreFullError(`the disk holding the database ${path} is full: nothing was stored`);
    }
    throw error;
  }
}

const SCHEMA_VERSION = 4;

const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE logs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      sdk_app_id INTEGER NOT NULL,
      room_ref TEXT,
      user_id TEXT NOT NULL,
      cmd_type TEXT NOT NULL,
      version TEXT NOT NULL,
      client_time INTEGER,
      received_at INTEGER NOT NULL,
      log TEXT NOT NULL
    );
    CREATE INDEX logs_app_time ON logs (sdk_app_id, received_at);
    CREATE INDEX logs_app_room ON logs (sdk_app_id, room_ref, id);
    CREATE INDEX logs_app_user ON logs (sdk_app_id, user_id, id);
    CREATE TABLE bans (
      sdk_app_id INTEGER NOT NULL,
      room_ref TEXT NOT NULL,
      user_id TEXT NOT NULL,
      until INTEGER NOT NULL,
      reason TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (sdk_app_id, room_ref, user_id)
    );
  `,
  2: CALLBACKS_MIGRATION + CALL_RECORDS_MIGRATION,
  3: CLOUD_TASKS_MIGRATION,
  4: USER_EVENTS_MIGRATION,
};

interface LogRow {
  id: number;
  sdk_app_id: number;
  room_ref: string | null;
  user_id: string;
  cmd_type: string;
  version: string;
  client_time: number | null;
  received_at: number;
  log: string;
}

interface BanRow {
  sdk_app_id: number;
  room_ref: string;
  user_id: string;
  until: number;
  reason: string;
  created_at: number;
}

function loadDriver(): DatabaseConstructor {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
  } catch (error) {
    throw new StoreError(
      `the SQLite driver (better-sqlite3) is not built: ${(error as Error).message.split('\n')[0]}. ` +
      'It compiles from source at install time (python3, make, g++ and Node headers are needed; root package.json allowScripts ' +
      'lets its install script run): run `npm rebuild better-sqlite3`.',
    );
  }
}

/**
 * The embedded database (SQLite through better-sqlite3): uploaded logs, bans, queued event callbacks, call
 * records and the cloud API's tasks. Every write is one SQLite
 * transaction in a write-ahead log (WAL): it is atomic — a process killed mid-write (SIGKILL, a crash) leaves
 * the previous state, and the next open rolls the log forward to the last committed write, so nothing the
 * server acknowledged is lost and nothing is half-written (the journal plays the part of "write to a temporary
 * file, fsync, rename" for a database; test/store/crash-safety.test.ts kills a server mid-write to show it).
 * `synchronous = NORMAL`: a power cut (not a process crash) may lose the last writes, never the file's
 * consistency. ':memory:' keeps everything in memory for tests.
 */
export class Store {
  readonly path: string;
  readonly #db: Database;
  readonly #insertLog: BetterSqlite3.Statement<[number, string | null, string, string, string, number | null, number, string]>;
  /** Event callbacks waiting to be delivered (survive restarts). */
  readonly callbacks: CallbackStore;
  /** Room sessions, users' visits and their events (the cloud API's call records). */
  readonly callRecords: CallRecordStore;
  /** The cloud API's recording, CDN and mix tasks (a TaskId answers after a restart). */
  readonly cloudTasks: CloudTaskStore;
  /** The bytes of uploaded log text kept, and the quota rule (log-quota.ts). */
  readonly #logBytes: LogBytes;
  #closed = false;

  private constructor(path: string, db: Database) {
    this.path = path;
    this.#db = db;
    this.callbacks = new CallbackStore(db);
    this.callRecords = new CallRecordStore(db);
    this.cloudTasks = new CloudTaskStore(db);
    this.#logBytes = new LogBytes(db);
    this.#insertLog = db.prepare(
      'INSERT INTO logs (sdk_app_id, room_ref, user_id, cmd_type, version, client_time, received_at, log) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** Opens (creating if needed) the database at `path`; throws StoreError with the reason. */
  static open(path: string): Store {
    const Driver = loadDriver();
    let db: Database;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      db = new Driver(path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 2000');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) throw new StoreError(`${path} has schema version ${version}, newer than this server's ${SCHEMA_VERSION}`);
      for (let v = version + 1; v <= SCHEMA_VERSION; v++) {
        db.transaction(() => {
          db.exec(MIGRATIONS[v]);
          db.pragma(`user_version = ${v}`);
        })();
      }
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`cannot open the database ${path}: ${(error as Error).message}`);
    }
    return new Store(path, db);
  }

  /** Stores a log; returns its id. Throws StoreFullError when the disk is full. */
  insertLog(entry: NewLog): number {
    const result = writing(this.path, () => this.#insertLog.run(entry.sdkAppId, entry.roomRef, entry.userId, entry.cmdType, entry.version, entry.clientTime, entry.receivedAt, entry.log));
    return Number(result.lastInsertRowid);
  }

  /**
   * Stores an uploaded log under the storage quota: the oldest uploads of its app (past the app's quota) or of
   * the largest app (past the total) are dropped first, in the same transaction. Returns its id and how many
   * were dropped for each. Throws LogQuotaError for a log larger than the quota, StoreFullError on a full disk.
   */
  insertUploadedLog(entry: NewLog, quota: LogQuota): { id: number; dropped: { app: number; total: number } } {
    const bytes = Buffer.byteLength(entry.log, 'utf8');
    return writing(this.path, () => this.#db.transaction(() => {
      const dropped = this.#logBytes.makeRoom(entry.sdkAppId, bytes, quota);
      const result = this.#insertLog.run(entry.sdkAppId, entry.roomRef, entry.userId, entry.cmdType, entry.version, entry.clientTime, entry.receivedAt, entry.log);
      this.#logBytes.added(entry.sdkAppId, bytes);
      return { id: Number(result.lastInsertRowid), dropped };
    })());
  }

  /** The uploaded log text kept now (the server's own events not counted), in bytes. */
  logBytes(): LogBytesSnapshot {
    return this.#logBytes.snapshot();
  }

  /** Reads logs of one app, newest first. */
  queryLogs(query: LogQuery): StoredLog[] {
    const where = ['sdk_app_id = ?'];
    const params: (string | number)[] = [query.sdkAppId];
    const add = (clause: string, value: string | number | undefined) => {
      if (value === undefined) return;
      where.push(clause);
      params.push(value);
    };
    add('room_ref = ?', query.roomRef);
    add('user_id = ?', query.userId);
    add('cmd_type = ?', query.cmdType);
    add('received_at >= ?', query.from);
    add('received_at < ?', query.to);
    add('id < ?', query.before);
    params.push(query.limit);
    const rows = this.#db.prepare(`SELECT * FROM logs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`).all(...params) as LogRow[];
    return rows.map((row) => ({
      id: row.id,
      sdkAppId: row.sdk_app_id,
      roomRef: row.room_ref,
      userId: row.user_id,
      cmdType: row.cmd_type,
      version: row.version,
      clientTime: row.client_time,
      receivedAt: row.received_at,
      log: row.log,
    }));
  }

  /** Deletes logs received before `before` (ms); returns how many. */
  purgeLogs(before: number): number {
    const removed = this.#db.prepare('DELETE FROM logs WHERE received_at < ?').run(before).changes;
    if (removed > 0) this.#logBytes.recount();
    return removed;
  }

  /** Number of stored logs (all apps). */
  countLogs(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM logs').get() as { n: number }).n;
  }

  /** Stores a ban (replacing one of the same user and room). Throws StoreFullError when the disk is full. */
  saveBan(ban: StoredBan): void {
    writing(this.path, () => this.#db.prepare('INSERT OR REPLACE INTO bans (sdk_app_id, room_ref, user_id, until, reason, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(ban.sdkAppId, ban.roomRef, ban.userId, ban.until, ban.reason, ban.createdAt));
  }

  deleteBan(sdkAppId: number, roomRef: RoomRef, userId: string): void {
    this.#db.prepare('DELETE FROM bans WHERE sdk_app_id = ? AND room_ref = ? AND user_id = ?').run(sdkAppId, roomRef, userId);
  }

  /** Bans still in force at `now`; expired ones are deleted. */
  loadBans(now: number): StoredBan[] {
    this.#db.prepare('DELETE FROM bans WHERE until <= ?').run(now);
    return (this.#db.prepare('SELECT * FROM bans').all() as BanRow[]).map((row) => ({
      sdkAppId: row.sdk_app_id, roomRef: row.room_ref, userId: row.user_id, until: row.until, reason: row.reason, createdAt: row.created_at,
    }));
  }

  /**
   * SQLite's own check of the whole database (pages, indexes, the journal's recovery): the problems it finds,
   * none when the file is sound. Slow on a big database: for tests and the admin's diagnosis, not per request.
   */
  integrityProblems(): string[] {
    const rows = this.#db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
  }

  /** True when the database answers. */
  healthy(): boolean {
    try {
      return !this.#closed && (this.#db.prepare('SELECT 1 AS ok').get() as { ok: number }).ok === 1;
    } catch {
      return false; // reported: the health check answers unhealthy
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
