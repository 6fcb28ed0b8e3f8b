import type BetterSqlite3 from 'better-sqlite3';

/** The table of the cloud API's tasks (store schema version 3). */
export const CLOUD_TASKS_MIGRATION = `
  CREATE TABLE cloud_tasks (
    task_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    sdk_app_id INTEGER NOT NULL,
    room_key TEXT NOT NULL,
    room_ref TEXT NOT NULL,
    state TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX cloud_tasks_updated ON cloud_tasks (updated_at);
`;

/** What a task is: a cloud recording, a CDN relay or mix, a room's mix transcode. */
export type CloudTaskKind = 'recording' | 'cdn' | 'mcu';

/**
 * running: started by this process (its job may have ended since, with its room); interrupted: running when
 * the server stopped (its job died with the process); ended: stopped or deleted through the API.
 */
export type CloudTaskState = 'running' | 'interrupted' | 'ended';

/** A task as stored: what the API needs to answer about it after a restart. */
export interface CloudTask {
  taskId: string;
  kind: CloudTaskKind;
  sdkAppId: number;
  roomKey: string;
  roomRef: string;
  state: CloudTaskState;
  /** The task's own fields (its job, parameters), JSON. */
  data: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

interface TaskRow {
  task_id: string;
  kind: CloudTaskKind;
  sdk_app_id: number;
  room_key: string;
  room_ref: string;
  state: CloudTaskState;
  data: string;
  created_at: number;
  updated_at: number;
}

const fromRow = (row: TaskRow): CloudTask => ({
  taskId: row.task_id, kind: row.kind, sdkAppId: row.sdk_app_id, roomKey: row.room_key, roomRef: row.room_ref, state: row.state,
  data: JSON.parse(row.data) as Record<string, unknown>, createdAt: row.created_at, updatedAt: row.updated_at,
});

/**
 * The cloud API's tasks (TaskId → its room, job and parameters), kept so that a TaskId still answers after a
 * restart. Each write is one SQLite statement (atomic, in the WAL).
 */
export class CloudTaskStore {
  readonly #db: BetterSqlite3.Database;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  /** Stores a task (replacing the row of the same TaskId). */
  put(task: CloudTask): void {
    this.#db.prepare(`INSERT OR REPLACE INTO cloud_tasks (task_id, kind, sdk_app_id, room_key, room_ref, state, data, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(task.taskId, task.kind, task.sdkAppId, task.roomKey, task.roomRef, task.state, JSON.stringify(task.data), task.createdAt, task.updatedAt);
  }

  get(taskId: string): CloudTask | undefined {
    const row = this.#db.prepare('SELECT * FROM cloud_tasks WHERE task_id = ?').get(taskId) as TaskRow | undefined;
    return row && fromRow(row);
  }

  delete(taskId: string): void {
    this.#db.prepare('DELETE FROM cloud_tasks WHERE task_id = ?').run(taskId);
  }

  /** Forgets the tasks not touched since `before` (ms); returns how many. */
  purge(before: number): number {
    return this.#db.prepare('DELETE FROM cloud_tasks WHERE updated_at < ?').run(before).changes;
  }

  /** At start: the tasks the previous process was running are interrupted (their jobs died with it); returns them. */
  interruptRunning(now: number): CloudTask[] {
    return this.#db.transaction(() => {
      const rows = this.#db.prepare("SELECT * FROM cloud_tasks WHERE state = 'running' ORDER BY created_at").all() as TaskRow[];
      this.#db.prepare("UPDATE cloud_tasks SET state = 'interrupted', updated_at = ? WHERE state = 'running'").run(now);
      return rows.map((row) => ({ ...fromRow(row), state: 'interrupted' as const, updatedAt: now }));
    })();
  }
}
