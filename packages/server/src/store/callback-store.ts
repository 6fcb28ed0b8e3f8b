import type BetterSqlite3 from 'better-sqlite3';

/** The table of queued event callbacks (store schema version 2). */
export const CALLBACKS_MIGRATION = `
  CREATE TABLE callbacks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sdk_app_id INTEGER NOT NULL,
    room_key TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    last_error TEXT
  );
  CREATE INDEX callbacks_room ON callbacks (room_key, id);
  CREATE INDEX callbacks_app ON callbacks (sdk_app_id, id);
`;

/** A queued event callback: its JSON body (without CallbackTs, which is stamped when sent). */
export interface QueuedCallback {
  id: number;
  sdkAppId: number;
  /** Callbacks of one room go out in id order, one at a time. */
  roomKey: string;
  body: string;
  createdAt: number;
  attempts: number;
  /** Not before this time (ms since the epoch). */
  nextAt: number;
  lastError: string | null;
}

interface CallbackRow {
  id: number;
  sdk_app_id: number;
  room_key: string;
  body: string;
  created_at: number;
  attempts: number;
  next_at: number;
  last_error: string | null;
}

const fromRow = (row: CallbackRow): QueuedCallback => ({
  id: row.id, sdkAppId: row.sdk_app_id, roomKey: row.room_key, body: row.body, createdAt: row.created_at,
  attempts: row.attempts, nextAt: row.next_at, lastError: row.last_error,
});

/** A queue summary of one app. */
export interface CallbackQueueSummary {
  queued: number;
  /** When the oldest queued callback was queued (ms), if any. */
  oldestAt: number | null;
  /** The last failure of a queued callback, if any. */
  lastError: string | null;
}

/**
 * The durable queue of event callbacks: a row per event, deleted once delivered. Each write is one SQLite
 * statement (atomic, in the WAL), so a crash loses no queued callback and leaves none half written.
 */
export class CallbackStore {
  readonly #db: BetterSqlite3.Database;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  /** Queues a callback, due at once; returns its id. */
  add(sdkAppId: number, roomKey: string, body: string, now: number): number {
    const result = this.#db.prepare('INSERT INTO callbacks (sdk_app_id, room_key, body, created_at, next_at) VALUES (?, ?, ?, ?, ?)')
      .run(sdkAppId, roomKey, body, now, now);
    return Number(result.lastInsertRowid);
  }

  /**
   * The first queued callback of each room, when it is due at `now`, oldest first: what may be sent now
   * (a room's later callbacks wait for its first, which keeps each room in order). Rooms in `busy` are skipped.
   */
  dueHeads(now: number, busy: ReadonlySet<string>, limit: number): QueuedCallback[] {
    const rows = this.#db.prepare(`
      SELECT c.* FROM callbacks c
      JOIN (SELECT room_key, MIN(id) AS head FROM callbacks GROUP BY room_key) h ON c.id = h.head
      WHERE c.next_at <= ? ORDER BY c.id LIMIT ?`).all(now, limit + busy.size) as CallbackRow[];
    return rows.filter((row) => !busy.has(row.room_key)).slice(0, limit).map(fromRow);
  }

  /** An app's queued callbacks, oldest first, at most `limit` (diagnosis and tests). */
  peek(sdkAppId: number, limit: number): QueuedCallback[] {
    return (this.#db.prepare('SELECT * FROM callbacks WHERE sdk_app_id = ? ORDER BY id LIMIT ?').all(sdkAppId, limit) as CallbackRow[]).map(fromRow);
  }

  /** When the next queued callback is due (ms), if any is queued. */
  nextDueAt(): number | undefined {
    const row = this.#db.prepare(`
      SELECT MIN(c.next_at) AS at FROM callbacks c
      JOIN (SELECT room_key, MIN(id) AS head FROM callbacks GROUP BY room_key) h ON c.id = h.head`).get() as { at: number | null };
    return row.at ?? undefined;
  }

  /** A delivered (or given up) callback leaves the queue. */
  remove(id: number): void {
    this.#db.prepare('DELETE FROM callbacks WHERE id = ?').run(id);
  }

  /** A failed attempt: counted, with its error, retried at `nextAt`. */
  failed(id: number, error: string, nextAt: number): void {
    this.#db.prepare('UPDATE callbacks SET attempts = attempts + 1, last_error = ?, next_at = ? WHERE id = ?').run(error.slice(0, 500), nextAt, id);
  }

  /** How many callbacks an app has queued (every app when `sdkAppId` is undefined). */
  count(sdkAppId?: number): number {
    const row = sdkAppId === undefined
      ? this.#db.prepare('SELECT COUNT(*) AS n FROM callbacks').get() as { n: number }
      : this.#db.prepare('SELECT COUNT(*) AS n FROM callbacks WHERE sdk_app_id = ?').get(sdkAppId) as { n: number };
    return row.n;
  }

  /** An app's queue: its length, its oldest entry's age and its last failure. */
  summary(sdkAppId: number): CallbackQueueSummary {
    const row = this.#db.prepare('SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM callbacks WHERE sdk_app_id = ?').get(sdkAppId) as { n: number; oldest: number | null };
    const failed = this.#db.prepare('SELECT last_error FROM callbacks WHERE sdk_app_id = ? AND last_error IS NOT NULL ORDER BY id LIMIT 1').get(sdkAppId) as { last_error: string } | undefined;
    return { queued: row.n, oldestAt: row.oldest, lastError: failed?.last_error ?? null };
  }
}
