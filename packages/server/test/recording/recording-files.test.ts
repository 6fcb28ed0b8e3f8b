import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingFiles } from '../../src/recording/recording-files.js';
import { gridLayout } from '../../src/recording/recording-manager.js';

describe('recording files', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
  const files = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rec-test-'));
    dirs.push(dir);
    return new RecordingFiles(dir);
  };

  it('names files with the record id, lists them per app, never resolves a path outside the folder', () => {
    const store = files();
    const path = store.path(7, { recordId: 'call_1', roomRef: 's:lobby room', kind: 'stream', userId: 'alice', startedAt: 1_700_000_000_000 });
    writeFileSync(path, 'x');
    const part = store.path(7, { recordId: 'call_1', roomRef: 's:lobby room', kind: 'stream', userId: 'alice', startedAt: 1_700_000_000_000 }, 1);
    writeFileSync(part, 'xy');
    expect(path).toMatch(/call_1__s-lobby-room__stream__alice__1700000000000\.mp4$/);
    expect(store.list(7).map((f) => [f.recordId, f.kind, f.userId, f.bytes])).toEqual([['call_1', 'stream', 'alice', 1], ['call_1', 'stream', 'alice', 2]]);
    expect(store.list(8)).toEqual([]);
    expect(store.file(7, '../7/x.mp4')).toBeUndefined();
    expect(store.file(8, store.list(7)[0].recordingId)).toBeUndefined();
    expect(store.delete(7, store.list(7)[0].recordingId)).toBe(true);
    expect(store.list(7)).toHaveLength(1);
  });

  it('purges files older than the retention', () => {
    const store = files();
    const old = store.path(1, { recordId: 'r', roomRef: '1', kind: 'mixed', startedAt: 1 });
    writeFileSync(old, 'x');
    utimesSync(old, new Date(0), new Date(0));
    writeFileSync(store.path(1, { recordId: 'r', roomRef: '1', kind: 'mixed', startedAt: 2 }), 'x');
    expect(store.purge(Date.now() - 1000)).toBe(1);
    expect(store.list(1)).toHaveLength(1);
  });

  it('lays out a grid that fills the picture', () => {
    expect(gridLayout(1, 640, 360)).toEqual([{ x: 0, y: 0, w: 640, h: 360, z: 1, fill: 1, visible: true }]);
    expect(gridLayout(3, 640, 360).map((c) => [c.x, c.y, c.w, c.h])).toEqual([[0, 0, 320, 180], [320, 0, 320, 180], [0, 180, 320, 180]]);
  });
});
