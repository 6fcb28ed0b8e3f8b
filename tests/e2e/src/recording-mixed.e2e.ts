import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf } from './harness/client-page.js';
import { join as joinRoom } from './harness/join.js';
import { colorAt, colorName, fakeMediaArgs, grabFrame, makeFakeMedia, probe } from './harness/media-probe.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

const ADMIN_KEY = 'conclave-e2e-admin-key-0123456789';

interface Recording { recordingId: string; recordId: string; kind: 'mixed' | 'stream'; userId: string | null; bytes: number; recording: boolean }

describe('recording (issue 14)', () => {
  let server: TestServer;
  let app: AppHost;
  let red: LaunchedBrowser;
  let blue: LaunchedBrowser;
  let folder: string;

  beforeAll(async () => {
    const [redMedia, blueMedia] = await Promise.all([makeFakeMedia('rec-red', 'red', 440), makeFakeMedia('rec-blue', 'blue', 1000)]);
    folder = mkdtempSync(join(tmpdir(), 'conclave-recordings-'));
    // Per-app setting: this app records every published stream; the mixed recording is started by the admin API.
    server = await startTestServer({ apps: [{ ...TEST_APP, adminKey: ADMIN_KEY, recording: 'per-stream' }], media: { recordingPath: folder } });
    app = await AppHost.start(server.url);
    red = await launchBrowser(fakeMediaArgs(redMedia));
    blue = await launchBrowser(fakeMediaArgs(blueMedia));
  });

  afterAll(async () => {
    await red?.close();
    await blue?.close();
    await app?.close();
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const admin = (path: string, init: RequestInit = {}) => fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}${path}`, {
    ...init, headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json', ...init.headers },
  });
  const recordings = async (): Promise<Recording[]> => ((await (await admin('/recordings')).json()) as { recordings: Recording[] }).recordings;
  const jobs = async (): Promise<{ kind: string; state: string; restarts: number }[]> => ((await (await admin('/jobs')).json()) as { jobs: { kind: string; state: string; restarts: number }[] }).jobs;

  it('a mixed recording of a 20 s call is a valid MP4 of 20 s ± 1.5 s with both users visible; a per-stream recording exists per published stream; both are listed and downloaded through the admin API', async () => {
    const alice = await app.open(red.context);
    const bob = await app.open(blue.context);
    expect(await joinRoom(alice, server, 'alice', { roomId: 14101 })).toEqual({ ok: true });
    expect(await joinRoom(bob, server, 'bob', { roomId: 14101 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    // The per-stream recordings (app setting) start once both publish.
    await expect.poll(async () => (await recordings()).filter((r) => r.kind === 'stream' && r.recording).map((r) => r.userId).sort(), { timeout: 20_000 }).toEqual(['alice', 'bob']);

    // The recorded call: from the moment the mix job runs (its pipeline writes the file; starting it takes
    // seconds on a loaded machine) until both leave 20 s later (the room empties, the file ends).
    const askedAt = Date.now();
    const started = await admin('/rooms/14101/recordings', { method: 'POST', body: JSON.stringify({ mode: 'mixed', userDefineRecordId: 'call_14101' }) });
    expect(started.status).toBe(200);
    await expect.poll(async () => (await recordings()).some((r) => r.kind === 'mixed' && r.recording), { timeout: 20_000 }).toBe(true);
    const mixJob = async () => (await jobs()).find((j) => j.kind === 'record-mix');
    await expect.poll(async () => (await mixJob())?.state, { timeout: 30_000, interval: 100 }).toBe('running');
    const startedAt = Date.now();
    console.log(`[recording] the mix job ran ${startedAt - askedAt} ms after the admin API's start`);
    await expect.poll(() => Date.now() - startedAt, { timeout: 25_000, interval: 100 }).toBeGreaterThanOrEqual(20_000);
    // One run: a restarted job would have begun a second file.
    expect(await mixJob()).toMatchObject({ restarts: 0 });
    await Promise.all([alice.close(), bob.close()]);
    await expect.poll(async () => (await recordings()).every((r) => !r.recording), { timeout: 20_000 }).toBe(true);

    const list = await recordings();
    const mixed = list.find((r) => r.kind === 'mixed');
    expect(mixed).toMatchObject({ recordId: 'call_14101' });
    expect(mixed!.recordingId).toMatch(/^call_14101__/);
    expect(list.filter((r) => r.kind === 'stream').map((r) => r.userId).sort()).toEqual(['alice', 'bob']);

    // Download each through the admin API and check it with ffprobe.
    const files: Record<string, string> = {};
    for (const rec of list) {
      const res = await admin(`/recordings/${encodeURIComponent(rec.recordingId)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      const path = join(folder, `download-${rec.kind}-${rec.userId ?? 'mix'}.mp4`);
      writeFileSync(path, Buffer.from(await res.arrayBuffer()));
      files[`${rec.kind}:${rec.userId ?? ''}`] = path;
    }
    const mixedProbe = await probe(files['mixed:']);
    expect(mixedProbe.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    expect(mixedProbe.duration).toBeGreaterThanOrEqual(18.5);
    expect(mixedProbe.duration).toBeLessThanOrEqual(21.5);
    // Both users visible: the grid has alice (joined first) left and bob right, 10 s in.
    const frame = await grabFrame(files['mixed:'], 64, 36, { at: 10 });
    expect(colorName(colorAt(frame, 64, { x: 12, y: 14, w: 8, h: 8 }))).toBe('red');
    expect(colorName(colorAt(frame, 64, { x: 44, y: 14, w: 8, h: 8 }))).toBe('blue');
    for (const user of ['alice', 'bob']) {
      const p = await probe(files[`stream:${user}`]);
      expect(p.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
      expect(p.duration).toBeGreaterThan(15);
      const userFrame = await grabFrame(files[`stream:${user}`], 64, 48, { at: 5 });
      expect(colorName(colorAt(userFrame, 64, { x: 24, y: 16, w: 16, h: 16 }))).toBe(user === 'alice' ? 'red' : 'blue');
    }

    // Delete through the admin API.
    expect((await admin(`/recordings/${encodeURIComponent(mixed!.recordingId)}`, { method: 'DELETE' })).status).toBe(200);
    expect((await recordings()).some((r) => r.recordingId === mixed!.recordingId)).toBe(false);
    expect((await admin(`/recordings/${encodeURIComponent(mixed!.recordingId)}`)).status).toBe(404);
  });
});
