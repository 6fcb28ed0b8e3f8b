import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { join as joinRoom, watch } from './harness/join.js';
import { fakeMediaArgs, makeFakeMedia, probe } from './harness/media-probe.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

/*
 * Faults (issue 30): a media job killed mid-recording, and the disk full under a recording. Real Chromium
 * publishes; the server records each published stream (GStreamer job); ffmpeg decodes what it wrote.
 */

const run = promisify(execFile);
const ADMIN_KEY = 'conclave-e2e-admin-key-0123456789';
/** The recordings disk: room for a few seconds of the fake camera's stream in two parts. */
const DISK_BYTES = 128 * 1024;

interface Recording { recordingId: string; kind: 'mixed' | 'stream'; userId: string | null; bytes: number; recording: boolean }
interface Job { jobId: string; kind: string; state: string; restarts: number; pid: number | null; lastError: string | null; outputs: string[] }

/** Decodes a file end to end: ffmpeg must read every packet without an error. Returns the decoded frame count. */
async function decodeAll(path: string): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-v', 'error', '-xerror', '-i', path, '-map', '0:v', '-f', 'null', '-', '-map', '0:a', '-f', 'null', '-', '-stats_period', '100'], { timeout: 60_000 });
  // Lines of the null output's own muxer (timestamps it is handed) are not about the file; the rest are.
  const errors = stderr.split('\n').filter((line) => line.trim() && !line.startsWith('[null @'));
  expect(errors, `ffmpeg errors decoding ${path}`).toEqual([]);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', path], { timeout: 60_000 });
  return Number(stdout.trim());
}

describe('faults: media jobs and the disk', () => {
  let browser: LaunchedBrowser;
  let server: TestServer;
  let app: AppHost;
  let alice: Page;
  let folder: string;
  let mounted = false;
  const t0 = Date.now();
  const note = (what: string) => console.log(`[faults-recording] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

  beforeAll(async () => {
    // The recordings folder is a small tmpfs, so the recording below fills it (root is needed, as for the
    // network-namespace fault tests: a failed mount fails the tests, they never skip).
    folder = mkdtempSync(join(tmpdir(), 'conclave-faults-rec-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES}`, 'tmpfs', folder], { stdio: 'pipe' });
      mounted = true;
    } catch (error) {
      throw new Error(`these tests mount a small tmpfs as the recordings folder, which needs root (uid ${process.getuid?.()}): ${(error as Error).message}`);
    }
    browser = await launchBrowser(fakeMediaArgs(await makeFakeMedia('faults-rec', 'red', 440)));
    server = await startTestServer({ apps: [{ ...TEST_APP, adminKey: ADMIN_KEY, recording: 'per-stream' }], media: { recordingPath: folder } });
    app = await AppHost.start(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
    if (mounted) execFileSync('umount', [folder], { stdio: 'pipe' });
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const admin = async <T>(path: string): Promise<T> => (await (await fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}${path}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json()) as T;
  const recordings = async () => (await admin<{ recordings: Recording[] }>('/recordings')).recordings;
  const jobs = async () => (await admin<{ jobs: Job[] }>('/jobs')).jobs;
  const fileOf = (rec: Recording) => join(folder, String(TEST_APP.sdkAppId), rec.recordingId);
  /** alice's recording files, the first run's first. */
  const parts = async () => (await recordings()).filter((r) => r.userId === 'alice').sort((a, b) => a.recordingId.length - b.recordingId.length);

  /** The file plays: H264 video and AAC audio, and ffmpeg decodes it to the end without an error. */
  async function expectPlayable(rec: Recording): Promise<void> {
    const probed = await probe(fileOf(rec));
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort(), rec.recordingId).toEqual(['audio:aac', 'video:h264']);
    expect(probed.duration, rec.recordingId).toBeGreaterThan(1);
    expect(await decodeAll(fileOf(rec)), rec.recordingId).toBeGreaterThan(10);
  }

  it('a media job killed: the job is restarted, and the recording stays playable (both parts decode end to end)', async () => {
    alice = await app.open(browser.context);
    expect(await joinRoom(alice, server, 'alice', { roomId: 30201 })).toEqual({ ok: true });
    await expect.poll(async () => (await jobs()).find((j) => j.kind === 'record-stream')?.state, { timeout: 30_000, interval: 250 }).toBe('running');
    note('recording');
    const [job] = await jobs();
    // A few seconds of recording (a few fragments) before the kill.
    await expect.poll(async () => (await parts())[0]?.bytes ?? 0, { timeout: 20_000, interval: 250 }).toBeGreaterThan(25_000);
    note('killing the job');
    process.kill(job.pid!, 'SIGKILL');
    await expect.poll(async () => (await jobs())[0], { timeout: 30_000, interval: 250 }).toMatchObject({ jobId: job.jobId, state: 'running', restarts: 1 });
    note('restarted');
    // The restart writes a new part, listed by the recordings API beside the first.
    await expect.poll(async () => (await parts()).map((r) => r.recordingId.replace(/^.*__alice__\d+/, '')), { timeout: 20_000 }).toEqual(['.mp4', '__part1.mp4']);
    await expect.poll(async () => (await parts())[1].bytes, { timeout: 20_000, interval: 250 }).toBeGreaterThan(25_000);
    // The part the kill cut short plays to its end (its partial last fragment was cut off when the job died).
    await expectPlayable((await parts())[0]);
  });

  it('the disk full for recordings: the job says so (failed, disk full), the recording stays playable, and the server keeps serving rooms', async () => {
    // The restarted recording fills the disk: the job fails with the reason, and is not restarted over and over.
    await expect.poll(async () => (await jobs()).find((j) => j.kind === 'record-stream'), { timeout: 60_000, interval: 500 })
      .toMatchObject({ state: 'failed', restarts: 1, lastError: expect.stringMatching(/^disk full: .*no space left/i) });
    note('disk full');
    expect((await recordings()).filter((r) => r.recording)).toEqual([]);
    // What the disk held is still a recording that plays to its end.
    for (const rec of await parts()) await expectPlayable(rec);

    // The server keeps serving the room: another user joins and sees alice's video.
    const bob: Page = await app.open(browser.context);
    expect(await joinRoom(bob, server, 'bob', { roomId: 30201 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await watch(bob, 'alice');
    await expect.poll(async () => (await media(bob)).framesDecoded, { timeout: 20_000, interval: 250 }).toBeGreaterThan(30);
    // No recording job was started again meanwhile (one retry a minute at most, see RecordingManager).
    expect((await jobs()).map((j) => j.state)).toEqual(['failed']);
    note('bob sees alice');
    await bob.close();
    await alice.close();
  });
});
