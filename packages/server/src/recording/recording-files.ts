import { rmSync, statSync } from 'node:fs';
import { AppFolders } from '../store/app-folders.js';
import { trimPartialFragment } from './mp4-trim.js';

/** How a recording was made: the room's mix, or one user's stream. */
export type RecordingKind = 'mixed' | 'stream';

/** A recording file as the admin API lists it. */
export interface RecordingFile {
  /** The file name; also the id in the admin API's paths. */
  recordingId: string;
  /** userDefineRecordId when given, else the room key. */
  recordId: string;
  roomKey: string;
  kind: RecordingKind;
  /** The user of a per-stream recording. */
  userId: string | null;
  startedAt: string;
  bytes: number;
}

const SEP = '__';
/** Characters kept in file names; everything else becomes '-'. userDefineRecordId is already [A-Za-z0-9_-]. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '-').replace(/_{2,}/g, '_');
const NAME = /^(.+?)__(.+?)__(mixed|stream)__(.*?)__(\d+)(?:__part(\d+))?\.mp4$/;

/**
 * The recordings folder: one sub-folder per app, MP4 files named
 * `<recordId>__<room>__<mixed|stream>__<userId>__<start ms>[__partN].mp4` (a part after each restart of a job
 * that died), so a listing needs no database.
 */
export class RecordingFiles {
  readonly #folders: AppFolders;

  constructor(root: string) {
    this.#folders = new AppFolders(root);
  }

  /** The path of a new recording (creates the app's folder); `run` > 0 adds the part number. */
  path(sdkAppId: number, meta: { recordId: string; roomRef: string; kind: RecordingKind; userId?: string; startedAt: number }, run = 0): string {
    this.#folders.ensure(sdkAppId);
    const name = [safe(meta.recordId), safe(meta.roomRef), meta.kind, safe(meta.userId ?? ''), String(meta.startedAt)].join(SEP);
    return this.#folders.file(sdkAppId, `${name}${run > 0 ? `${SEP}part${run}` : ''}.mp4`);
  }

  /** The app's recordings, newest first. */
  list(sdkAppId: number): RecordingFile[] {
    const names = this.#folders.names(sdkAppId);
    const files: RecordingFile[] = [];
    for (const name of names) {
      const m = NAME.exec(name);
      if (!m) continue;
      const stat = statSync(this.#folders.file(sdkAppId, name), { throwIfNoEntry: false });
      if (!stat) continue;
      files.push({
        recordingId: name, recordId: m[1], roomKey: m[2], kind: m[3] as RecordingKind, userId: m[4] || null,
        startedAt: new Date(Number(m[5])).toISOString(), bytes: stat.size,
      });
    }
    return files.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** The file of a recording id of this app, or undefined (ids are bare names: no path escapes the folder). */
  file(sdkAppId: number, recordingId: string): string | undefined {
    if (!NAME.test(recordingId) || recordingId.includes('/') || recordingId.includes('\\')) return undefined;
    const path = this.#folders.file(sdkAppId, recordingId);
    return statSync(path, { throwIfNoEntry: false })?.isFile() ? path : undefined;
  }

  /** Deletes a recording; false when there is no such file. */
  delete(sdkAppId: number, recordingId: string): boolean {
    const path = this.file(sdkAppId, recordingId);
    if (!path) return false;
    rmSync(path, { force: true });
    return true;
  }

  /**
   * Cuts the partial last fragment off recordings whose writer was killed (a job that died, or a server
   * killed mid-recording: run at start), so every listed file plays to its end. Returns the files repaired.
   */
  repair(paths?: string[]): number {
    const targets = paths ?? this.#folders.apps().flatMap((app) => this.#folders.names(app).filter((name) => NAME.test(name)).map((name) => this.#folders.file(app, name)));
    let repaired = 0;
    for (const path of targets) {
      try {
        if (trimPartialFragment(path) > 0) repaired++;
      } catch {
        // gone meanwhile, or unreadable: nothing to repair
      }
    }
    return repaired;
  }

  /** Deletes recordings (of every app) last written before `before` (ms); returns how many. */
  purge(before: number): number {
    let removed = 0;
    for (const app of this.#folders.apps()) {
      for (const name of this.#folders.names(app)) {
        const path = this.#folders.file(app, name);
        const stat = statSync(path, { throwIfNoEntry: false });
        if (stat?.isFile() && NAME.test(name) && stat.mtimeMs < before) {
          rmSync(path, { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}
