import type BetterSqlite3 from 'better-sqlite3';

/** The call-record tables (store schema version 2): room sessions and the users' visits to them. */
export const CALL_RECORDS_MIGRATION = `
  CREATE TABLE room_sessions (
    comm_id TEXT PRIMARY KEY,
    sdk_app_id INTEGER NOT NULL,
    room_ref TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    destroyed_at INTEGER,
    creator TEXT
  );
  CREATE INDEX room_sessions_app_time ON room_sessions (sdk_app_id, created_at);
  CREATE TABLE user_sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    comm_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    left_at INTEGER,
    sdk_version TEXT,
    terminal_type INTEGER,
    client_ip TEXT
  );
  CREATE INDEX user_sessions_comm ON user_sessions (comm_id, user_id, id);
`;

/** The users' events in their calls (store schema version 4): what DescribeUserEvent answers. */
export const USER_EVENTS_MIGRATION = `
  CREATE TABLE user_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    comm_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    media TEXT,
    detail TEXT
  );
  CREATE INDEX user_events_visit ON user_events (comm_id, user_id, id);
`;

/** What a user did in a call, as the server saw it. */
export type UserEventKind = 'entered' | 'left' | 'role-changed' | 'started' | 'stopped' | 'muted' | 'unmuted' | 'network-lost';

/** One event of a user in a room session. */
export interface UserEventRecord {
  userId: string;
  /** ms since the epoch. */
  at: number;
  kind: UserEventKind;
  /** started / stopped / muted / unmuted: which media ('video', 'audio', 'sub'). */
  media: string | null;
  /** entered / role-changed: the role code; left: the leave reason. */
  detail: string | null;
}

/**
 * The most events kept of one user in one call: past it, only entering and leaving are recorded (a client
 * toggling its camera in a loop cannot fill the disk; the retention bounds the rest).
 */
export const MAX_EVENTS_PER_USER_CALL = 2000;

/** One room session ("call"): from the room's first user entering to its last leaving. */
export interface RoomSessionRecord {
  commId: string;
  sdkAppId: number;
  roomRef: string;
  createdAt: number;
  destroyedAt: number | null;
  /** The user who entered first. */
  creator: string | null;
}

/** One visit of a user to a room session. */
export interface UserSessionRecord {
  commId: string;
  userId: string;
  joinedAt: number;
  leftAt: number | null;
  sdkVersion: string | null;
  terminalType: number | null;
  clientIp: string | null;
}

/** A page of records and how many match in all. */
export interface RecordPage<T> {
  total: number;
  items: T[];
}

/**
 * Call records (the cloud API's DescribeRoomInfo / DescribeUserInfo / DescribeUserEvent): written as rooms are
 * created and emptied, users come and go and start and stop their media; each write is one statement.
 */
export class CallRecordStore {
  readonly #db: BetterSqlite3.Database;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  /** A room session began (a second one with the same id in the same second continues the first). */
  roomCreated(commId: string, sdkAppId: number, roomRef: string, at: number): void {
    this.#db.prepare('INSERT OR IGNORE INTO room_sessions (comm_id, sdk_app_id, room_ref, created_at) VALUES (?, ?, ?, ?)').run(commId, sdkAppId, roomRef, at);
    this.#db.prepare('UPDATE room_sessions SET destroyed_at = NULL WHERE comm_id = ?').run(commId);
  }

  roomDestroyed(commId: string, at: number): void {
    this.#db.prepare('UPDATE room_sessions SET destroyed_at = ? WHERE comm_id = ?').run(at, commId);
  }

  userEntered(commId: string, record: Omit<UserSessionRecord, 'commId' | 'leftAt'>): void {
    this.#db.prepare('UPDATE room_sessions SET creator = ? WHERE comm_id = ? AND creator IS NULL').run(record.userId, commId);
    this.#db.prepare('INSERT INTO user_sessions (comm_id, user_id, joined_at, sdk_version, terminal_type, client_ip) VALUES (?, ?, ?, ?, ?, ?)')
      .run(commId, record.userId, record.joinedAt, record.sdkVersion, record.terminalType, record.clientIp);
  }

  userLeft(commId: string, userId: string, at: number): void {
    this.#db.prepare(`UPDATE user_sessions SET left_at = ? WHERE id = (
      SELECT id FROM user_sessions WHERE comm_id = ? AND user_id = ? AND left_at IS NULL ORDER BY id DESC LIMIT 1)`).run(at, commId, userId);
  }

  /** Records a user's event in a room session (past MAX_EVENTS_PER_USER_CALL, only entering and leaving). */
  userEvent(commId: string, event: UserEventRecord): void {
    if (event.kind !== 'entered' && event.kind !== 'left') {
      const kept = (this.#db.prepare('SELECT COUNT(*) AS n FROM user_events WHERE comm_id = ? AND user_id = ?').get(commId, event.userId) as { n: number }).n;
      if (kept >= MAX_EVENTS_PER_USER_CALL) return;
    }
    this.#db.prepare('INSERT INTO user_events (comm_id, user_id, at, kind, media, detail) VALUES (?, ?, ?, ?, ?, ?)')
      .run(commId, event.userId, event.at, event.kind, event.media, event.detail);
  }

  /** A user's events in one of an app's room sessions in [from, to] (ms), in order. */
  userEvents(query: { sdkAppId: number; commId: string; userId: string; from: number; to: number }): UserEventRecord[] {
    const rows = this.#db.prepare(`SELECT e.* FROM user_events e JOIN room_sessions r ON r.comm_id = e.comm_id
      WHERE e.comm_id = ? AND r.sdk_app_id = ? AND e.user_id = ? AND e.at >= ? AND e.at <= ? ORDER BY e.id`)
      .all(query.commId, query.sdkAppId, query.userId, query.from, query.to) as { user_id: string; at: number; kind: UserEventKind; media: string | null; detail: string | null }[];
    return rows.map((r) => ({ userId: r.user_id, at: r.at, kind: r.kind, media: r.media, detail: r.detail }));
  }

  /** Sessions a stopped server left open end at `at` (a restart ends every room). */
  closeOpen(at: number): void {
    this.#db.prepare('UPDATE user_sessions SET left_at = ? WHERE left_at IS NULL').run(at);
    this.#db.prepare('UPDATE room_sessions SET destroyed_at = ? WHERE destroyed_at IS NULL').run(at);
  }

  /** An app's room sessions created in [from, to) (ms), optionally of one room, oldest first. */
  rooms(query: { sdkAppId: number; from: number; to: number; roomRef?: string; offset: number; limit: number }): RecordPage<RoomSessionRecord> {
    const where = 'sdk_app_id = ? AND created_at >= ? AND created_at < ?' + (query.roomRef === undefined ? '' : ' AND room_ref = ?');
    const params: (string | number)[] = [query.sdkAppId, query.from, query.to, ...(query.roomRef === undefined ? [] : [query.roomRef])];
    const total = (this.#db.prepare(`SELECT COUNT(*) AS n FROM room_sessions WHERE ${where}`).get(...params) as { n: number }).n;
    const rows = this.#db.prepare(`SELECT * FROM room_sessions WHERE ${where} ORDER BY created_at, comm_id LIMIT ? OFFSET ?`)
      .all(...params, query.limit, query.offset) as { comm_id: string; sdk_app_id: number; room_ref: string; created_at: number; destroyed_at: number | null; creator: string | null }[];
    return {
      total,
      items: rows.map((r) => ({ commId: r.comm_id, sdkAppId: r.sdk_app_id, roomRef: r.room_ref, createdAt: r.created_at, destroyedAt: r.destroyed_at, creator: r.creator })),
    };
  }

  /** Visits to one of an app's room sessions that overlap [from, to) (ms), optionally of some users, in order. */
  users(query: { sdkAppId: number; commId: string; from: number; to: number; userIds?: string[]; offset: number; limit: number }): RecordPage<UserSessionRecord> {
    const users = query.userIds ?? [];
    const where = `u.comm_id = ? AND r.sdk_app_id = ? AND u.joined_at < ? AND (u.left_at IS NULL OR u.left_at >= ?)${users.length > 0 ? ` AND u.user_id IN (${users.map(() => '?').join(', ')})` : ''}`;
    const params: (string | number)[] = [query.commId, query.sdkAppId, query.to, query.from, ...users];
    const from = 'FROM user_sessions u JOIN room_sessions r ON r.comm_id = u.comm_id';
    const total = (this.#db.prepare(`SELECT COUNT(*) AS n ${from} WHERE ${where}`).get(...params) as { n: number }).n;
    const rows = this.#db.prepare(`SELECT u.* ${from} WHERE ${where} ORDER BY u.id LIMIT ? OFFSET ?`).all(...params, query.limit, query.offset) as {
      comm_id: string; user_id: string; joined_at: number; left_at: number | null; sdk_version: string | null; terminal_type: number | null; client_ip: string | null;
    }[];
    return {
      total,
      items: rows.map((r) => ({ commId: r.comm_id, userId: r.user_id, joinedAt: r.joined_at, leftAt: r.left_at, sdkVersion: r.sdk_version, terminalType: r.terminal_type, clientIp: r.client_ip })),
    };
  }

  /** Deletes room sessions (and their visits and users' events) created before `before` (ms); returns how many. */
  purge(before: number): number {
    return this.#db.transaction(() => {
      for (const table of ['user_sessions', 'user_events']) {
        this.#db.prepare(`DELETE FROM ${table} WHERE comm_id IN (SELECT comm_id FROM room_sessions WHERE created_at < ?)`).run(before);
      }
      return this.#db.prepare('DELETE FROM room_sessions WHERE created_at < ?').run(before).changes;
    })();
  }
}
