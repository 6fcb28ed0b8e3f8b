/**
 * Conclave benchmarks: SDK bundle size, join → first remote frame, server CPU per forwarded stream,
 * recovery time after a network cut and after a server restart, signalling capacity of one node, the HTTP fuzz,
 * the peer fuzz.
 * Prints progress to stderr, a table to stdout, and writes results/latest.json.
 * Run with `npm run bench` at the root (builds first) or `node --import tsx src/run.ts` here.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH, launchBrowser, type LaunchedBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { bundleSizeRows, measureBundleSize } from './bundle-size.js';
import { canvasPlayerRows, runCanvasPlayer } from './canvas-player.js';
import { runSoftwareDecoder, softwareDecoderRows } from './software-decoder.js';
import { cdnDelayRows, runCdnDelay } from './cdn-delay.js';
import { crossRoomDelayRows, runCrossRoomDelay } from './cross-room-delay.js';
import { clusterRows, runCluster } from './cluster.js';
import { engineRows, runEngines } from './engines.js';
import { runFirstFrame, type FirstFrameResult } from './first-frame.js';
import { mediaJobRows, runMediaJobs } from './media-jobs.js';
import { runTranscriber, transcriberRows } from './transcriber.js';
import { recoveryRows, runRecovery } from './recovery.js';
import { reconnectOutageRows, runReconnectOutage } from './reconnect-outage.js';
import { runServerCpu, type ServerCpuResult } from './server-cpu.js';
import { loadOptionsFromEnv, runSignalLoad, signalLoadRows } from './signal-load/index.js';
import { httpFuzzRows, runHttpFuzzBench } from './http-fuzz.js';
import { peerFuzzRows, runPeerFuzzBench } from './peer-fuzz.js';
import { ServerProcess } from './server-process.js';
import { runSoaks, soakRows } from './soak.js';
import { faceCpuRows } from './face-plugins.js';
import { pluginCpuRows, pluginSizeRows } from './plugins.js';
import { progress } from './stats.js';
import { benchVideoEffects } from './video-effects.js';
import { renderTable, type Row } from './table.js';
import { runWhepFirstFrame, whepFirstFrameRows } from './whep-first-frame.js';
import { runUserPath, userPathEngines, userPathRows } from './user-path.js';
import { demoUiRows, runDemoUi } from './demo-ui.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 20);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 20);
const PUBLISHERS = Number(process.env.BENCH_PUBLISHERS ?? 2);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 4);

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const ms = (v: number) => v.toFixed(0);
const f1 = (v: number) => v.toFixed(1);
const f2 = (v: number) => v.toFixed(2);

function firstFrameRows(r: FirstFrameResult): Row[] {
  const s = r.summary;
  const b = 'join → first remote frame';
  const m = r.medianMarks;
  return [
    { benchmark: b, figure: ms(s.median), unit: 'ms (median)', notes: `n=${s.count}, fresh page each, enterRoom() → first rVFC frame (${r.frameSize})` },
    { benchmark: b, figure: ms(s.min), unit: 'ms (min)', notes: '' },
    { benchmark: b, figure: ms(s.p90), unit: 'ms (p90)', notes: 'nearest rank' },
    { benchmark: b, figure: ms(s.max), unit: 'ms (max)', notes: '' },
    { benchmark: b, figure: ms(m.enterRoom), unit: 'ms (median)', notes: 'of which: enterRoom() resolved' },
    { benchmark: b, figure: ms(m.videoAvailable), unit: 'ms (median)', notes: `of which: remote-video-available (before enterRoom() resolved in ${r.availableBeforeEntered}/${s.count})` },
    { benchmark: b, figure: ms(m.videoElement), unit: 'ms (median)', notes: 'of which: SDK appended <video> to the view' },
    { benchmark: b, figure: ms(m.pcConnected), unit: 'ms (median)', notes: 'of which: downlink RTCPeerConnection connected' },
    { benchmark: b, figure: ms(m.firstPacket), unit: 'ms (median)', notes: 'of which: first video packet received (20 ms getStats poll)' },
    { benchmark: b, figure: String(r.keyframes.subscriberPlisMedian), unit: 'PLIs (median)', notes: `sent by the subscriber before its first frame; publisher got ${r.keyframes.publisherPlis} PLIs, encoded ${r.keyframes.publisherKeyframes} key frames over ${s.count} joins` },
  ];
}

/** callExperimentalAPI('preconnect') before enterRoom(): the same measurement, beside the plain one as a ratio. */
function preconnectRows(plain: FirstFrameResult, warm: FirstFrameResult): Row[] {
  const b = 'preconnect, then join → first remote frame';
  return [
    { benchmark: b, figure: ms(warm.summary.median), unit: 'ms (median)', notes: `n=${warm.summary.count}; ${f2(warm.summary.median / plain.summary.median)}× the plain join's median (${ms(plain.summary.median)} ms)` },
    { benchmark: b, figure: ms(warm.medianMarks.enterRoom), unit: 'ms (median)', notes: `of which: enterRoom() resolved (plain: ${ms(plain.medianMarks.enterRoom)} ms)` },
  ];
}

function serverCpuRows(r: ServerCpuResult): Row[] {
  const b = 'server CPU per forwarded stream';
  const fw = r.forwarding;
  const base = r.baseline;
  const streams = fw.streams.video + fw.streams.audio;
  const fps = fw.subscriberFps.map((v) => v.toFixed(0)).join('/');
  return [
    { benchmark: b, figure: f1(fw.serverCpuPercent), unit: '% of 1 core', notes: `server child process, ${r.publishers} pub × ${r.subscribers} sub, ${ms(fw.wallMs / 1000)} s window` },
    { benchmark: b, figure: String(streams), unit: 'streams', notes: `${fw.streams.video} video + ${fw.streams.audio} audio (audio auto-received by every other user)` },
    { benchmark: b, figure: f2(r.cpuMsPerSecPerStream), unit: 'CPU ms/s per stream', notes: 'audio and video streams each counted once' },
    { benchmark: b, figure: f2(r.marginalCpuMsPerSecPerVideoStream), unit: 'CPU ms/s per video stream', notes: `marginal: (forwarding − baseline) / ${fw.streams.video} video streams` },
    { benchmark: b, figure: f2(fw.forwardedMbps), unit: 'Mbit/s forwarded', notes: `RTP payload, stats().forwardedBytes delta; ${ms(fw.forwardedPacketsPerSecond)} pkt/s` },
    { benchmark: b, figure: f1(r.cpuMsPerSecPerMbps), unit: 'CPU ms/s per Mbit/s', notes: '' },
    { benchmark: b, figure: f1(base.serverCpuPercent), unit: '% of 1 core', notes: `baseline (${ms(base.wallMs / 1000)} s): publishing, no video watched, ${base.streams.audio} audio streams, ${f2(base.forwardedMbps)} Mbit/s` },
    { benchmark: b, figure: ms(r.publisherVideo.reduce((sum, p) => sum + p.kbps, 0) / r.publisherVideo.length), unit: 'kbit/s per publisher', notes: `video uplink: ${r.publisherVideo.map((p) => `${p.size}@${p.fps}fps target ${ms(p.targetKbps)}k limit ${p.qualityLimitationReason}`).join('; ')}` },
    { benchmark: b, figure: f1(fw.hostBusyPercent), unit: `% of ${r.cores} cores`, notes: `whole host busy during forwarding window; subscribers decoded ${fps} fps` },
  ];
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  let server: ServerProcess | undefined;
  let app: AppHost | undefined;
  let browser: LaunchedBrowser | undefined;
  try {
    const bundleSize = await measureBundleSize();
    progress(`bundle size: ours ${bundleSize.ours.gzip} B gzip, original ${bundleSize.original.gzip} B gzip`);
    server = await ServerProcess.start();
    progress(`server child pid ${server.pid} at ${server.url}`);
    app = await AppHost.start(server.url);
    browser = await launchBrowser();

    const firstFrame = await runFirstFrame(browser.context, app, server, { iterations: ITERATIONS });
    const preconnected = await runFirstFrame(browser.context, app, server, { iterations: ITERATIONS, roomId: 9002, preconnect: true });
    const userPath = await runUserPath(browser.context, { iterations: ITERATIONS, engines: userPathEngines() });
    const demoUi = await runDemoUi();
    const cores = availableParallelism();
    const serverCpu = await runServerCpu(browser.context, app, server, { windowSeconds: WINDOW_SECONDS, baselineSeconds: BASELINE_SECONDS, publishers: PUBLISHERS, subscribers: SUBSCRIBERS, cores });

    const engines = await runEngines(browser.context, (url) => AppHost.start(url), { iterations: ITERATIONS, windowSeconds: WINDOW_SECONDS });
    const videoEffects = await benchVideoEffects(app, server);
    const cdnDelayMs = await runCdnDelay(browser.context, app, server);
    const crossRoomDelay = await runCrossRoomDelay(browser.context, (url) => AppHost.start(url));
    const canvasPlayer = await runCanvasPlayer(server);
    const softwareDecoder = await runSoftwareDecoder(server);
    const whepFirstFrame = await runWhepFirstFrame(browser, { iterations: ITERATIONS });
    const soak = await runSoaks(browser.context, (url) => AppHost.start(url), fileURLToPath(new URL('../results/', import.meta.url)));
    await browser.close();
    browser = undefined;
    const mediaJobs = await runMediaJobs({ windowSeconds: Number(process.env.BENCH_MIX_WINDOW_SECONDS ?? 10) });
    const transcriber = await runTranscriber({ repetitions: Number(process.env.BENCH_TRANSCRIBER_SENTENCES ?? 6) });
    const recovery = await runRecovery({ iterations: Number(process.env.BENCH_RECOVERY_ITERATIONS ?? 5) });
    const cluster = await runCluster({ failovers: Number(process.env.BENCH_FAILOVER_ITERATIONS ?? 5) });
    const signalLoad = await runSignalLoad(loadOptionsFromEnv());
    const httpFuzz = await runHttpFuzzBench({ maxExamples: Number(process.env.BENCH_FUZZ_EXAMPLES ?? 20) });
    const peerFuzz = await runPeerFuzzBench();
    const reconnectOutage = await runReconnectOutage();
    const rows = [...bundleSizeRows(bundleSize), ...firstFrameRows(firstFrame), ...preconnectRows(firstFrame, preconnected), ...userPathRows(userPath), ...demoUiRows(demoUi), ...serverCpuRows(serverCpu), ...engineRows(engines), ...mediaJobRows(mediaJobs), ...transcriberRows(transcriber), ...cdnDelayRows(cdnDelayMs), ...crossRoomDelayRows(crossRoomDelay), ...canvasPlayerRows(canvasPlayer), ...softwareDecoderRows(softwareDecoder), ...whepFirstFrameRows(whepFirstFrame), ...recoveryRows(recovery), ...reconnectOutageRows(reconnectOutage), ...clusterRows(cluster), ...soakRows(soak), ...signalLoadRows(signalLoad), ...httpFuzzRows(httpFuzz), ...peerFuzzRows(peerFuzz), ...videoEffects.rows, ...pluginSizeRows(), ...await pluginCpuRows(server), ...await faceCpuRows(server)];
    const footnotes = [
      `Host: ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${chromiumVersion()} headless, fake camera/mic, everything on loopback.`,
      'Server CPU is utime+stime of the server child process from /proc/<pid>/stat (cross-checked with its own process.cpuUsage()).',
      'The server runs in a child process (startServer(), as the CLI does, plus an IPC channel for stats()), so the playwright driver',
      `(this process, ${f1(serverCpu.forwarding.driverCpuPercent)}% of a core during the window) and Chromium are not counted; they do compete for the same cores.`,
    ];
    const table = renderTable(rows);
    process.stdout.write(`\n${table}\n\n${footnotes.map((n) => `  ${n}`).join('\n')}\n`);

    const dir = fileURLToPath(new URL('../results/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    const file = `${dir}latest.json`;
    writeFileSync(file, JSON.stringify({
      startedAt,
      durationSeconds: (performance.now() - started) / 1000,
      host: { cores, cpu: cpus()[0]?.model, node: process.version, chromium: chromiumVersion() },
      bundleSize,
      firstFrame,
      preconnected,
      userPath,
      demoUi,
      serverCpu,
      engines,
      videoEffects: { results: videoEffects.results, pluginSizes: videoEffects.sizes },
      mediaJobs,
      transcriber,
      cdnDelayMs,
      crossRoomDelay,
      canvasPlayer,
      softwareDecoder,
      whepFirstFrame,
      recovery,
      reconnectOutage,
      cluster,
      signalLoad,
      httpFuzz,
      peerFuzz,
      soak,
      table: rows,
      footnotes,
    }, null, 2) + '\n');
    progress(`results written to ${file} (${((performance.now() - started) / 1000).toFixed(0)} s total)`);
  } finally {
    await browser?.close();
    await app?.close();
    await server?.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
