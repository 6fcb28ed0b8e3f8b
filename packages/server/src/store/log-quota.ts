import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

/** How much uploaded log text is kept (config limits.logBytesPerApp, logBytesTotal), in UTF-8 bytes. */
export interface LogQuota {
  perAppBytes: number;
  totalBytes: number;
}

/** The uploaded log text kept now, in bytes. */
export interface LogBytesSnapshot {
  total: number;
  byApp: Record<number, number>;
}

/** An upload larger than the quota itself (it could never be kept). */
export class LogQuotaError extends Error {
  override name = 'LogQuotaError';
}

/** Uploads are every log but the server's own audit events ('server_event'), which no quota drops. */
const UPLOADS = "cmd_type != 'server_event'";
const BATCH = 256;

/**
 * The bytes of uploaded log text in the store, per app, kept in memory (counted from the table at open and
 * after a purge), and the drop-oldest rule that holds them under a quota (docs/behaviour.md §10.1): an
 * upload past its app's quota drops that app's oldest uploads; past the total, the largest app's. Dropping
 * rather than refusing keeps the newest logs, the ones a support question is about; the server's audit events
 * are never dropped.
 */
export class LogBytes {
  readonly #db: Database;
  #byApp = new Map<number, number>();
  #total = 0;

  constructor(db: Database) {
    this.#db = db;
    this.recount();
  }

  /** Counts the table again (at open, after a purge). */
  recount(): void {
    const rows = this.#db.prepare(`SELECT sdk_app_id AS app, SUM(length(CAST(log AS BLOB))) AS bytes FROM logs WHERE ${UPLOADS} GROUP BY sdk_app_id`).all() as { app: number; bytes: number }[];
    this.#byApp = new Map(rows.map((row) => [row.app, row.bytes]));
    this.#total = rows.reduce((sum, row) => sum + row.bytes, 0);
  }

  snapshot(): LogBytesSnapshot {
    return { total: this.#total, byApp: Object.fromEntries(this.#byApp) };
  }

  /**
   * Makes room for `bytes` more of `app` under `quota` by deleting the oldest uploads; returns how many went for
   * the app's quota and for the total. Runs inside the insert's transaction.
   */
  makeRoom(app: number, bytes: number, quota: LogQuota): { app: number; total: number } {
    if (bytes > quota.perAppBytes || bytes > quota.totalBytes) throw new LogQuotaError(`a log of ${bytes} bytes exceeds the log storage quota`);
    const dropped = { app: 0, total: 0 };
    const over = (this.#byApp.get(app) ?? 0) + bytes - quota.perAppBytes;
    if (over > 0) dropped.app = this.#drop(app, over).count;
    while (this.#total + bytes > quota.totalBytes) {
      // The largest app gives way, counting what the uploading app is about to add.
      const [largest] = [...this.#byApp.entries()].sort((a, b) => (b[1] + (b[0] === app ? bytes : 0)) - (a[1] + (a[0] === app ? bytes : 0)) || a[0] - b[0]);
      const freed = largest ? this.#drop(largest[0], this.#total + bytes - quota.totalBytes) : undefined;
      if (!freed || freed.bytes === 0) break; // nothing left to drop (counts out of step: recounted below)
      dropped.total += freed.count;
    }
    if (this.#total + bytes > quota.totalBytes) this.recount();
    return dropped;
  }

  /** Counts an upload stored. */
  added(app: number, bytes: number): void {
    this.#byApp.set(app, (this.#byApp.get(app) ?? 0) + bytes);
    this.#total += bytes;
  }

  /** Deletes `app`'s oldest uploads until at least `need` bytes are freed (or none is left): how many, how much. */
  #drop(app: number, need: number): { count: number; bytes: number } {
    const select = this.#db.prepare(`SELECT id, length(CAST(log AS BLOB)) AS bytes FROM logs WHERE sdk_app_id = ? AND ${UPLOADS} AND id > ? ORDER BY id LIMIT ${BATCH}`);
    let freed = 0;
    let count = 0;
    let last = 0;
    while (freed < need) {
      const rows = select.all(app, last) as { id: number; bytes: number }[];
      for (const row of rows) {
        if (freed >= need) break;
        freed += row.bytes;
        count++;
        last = row.id;
      }
      if (rows.length < BATCH) break;
    }
    if (count > 0) this.#db.prepare(`DELETE FROM logs WHERE sdk_app_id = ? AND ${UPLOADS} AND id <= ?`).run(app, last);
    const left = (this.#byApp.get(app) ?? 0) - freed;
    if (left > 0) this.#byApp.set(app, left);
    else this.#byApp.delete(app);
    this.#total -= freed;
    if (count === 0) this.#byApp.delete(app); // counted bytes with no upload behind them
    return { count, bytes: freed };
  }
}
