/**
 * Some parts of the bench alone: `node --import tsx src/run-parts.ts <part>…` in bench/ after `npm run build`,
 * parts among cdn-delay, canvas-player, media-jobs, cluster, software-decoder, cross-room, whep, transcriber, reconnect-outage, signal-load, http-fuzz, peer-fuzz, user-path, demo-ui. Prints their table rows.
 */
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { canvasPlayerRows, runCanvasPlayer } from './canvas-player.js';
import { cdnDelayRows, runCdnDelay } from './cdn-delay.js';
import { runTranscriber, transcriberRows } from './transcriber.js';
import { crossRoomDelayRows, runCrossRoomDelay } from './cross-room-delay.js';
import { clusterRows, runCluster } from './cluster.js';
import { mediaJobRows, runMediaJobs } from './media-jobs.js';
import { reconnectOutageRows, runReconnectOutage } from './reconnect-outage.js';
import { ServerProcess } from './server-process.js';
import { loadOptionsFromEnv, runSignalLoad, signalLoadRows } from './signal-load/index.js';
import { httpFuzzRows, runHttpFuzzBench } from './http-fuzz.js';
import { peerFuzzRows, runPeerFuzzBench } from './peer-fuzz.js';
import { runSoftwareDecoder, softwareDecoderRows } from './software-decoder.js';
import { renderTable, type Row } from './table.js';
import { runWhepFirstFrame, whepFirstFrameRows } from './whep-first-frame.js';
import { runUserPath, userPathEngines, userPathRows } from './user-path.js';
import { demoUiRows, runDemoUi } from './demo-ui.js';

const parts = new Set(process.argv.slice(2));
const server = await ServerProcess.start();
const app = await AppHost.start(server.url);
const browser = await launchBrowser();
const rows: Row[] = [];
try {
  if (parts.has('cross-room')) rows.push(...crossRoomDelayRows(await runCrossRoomDelay(browser.context, (url) => AppHost.start(url))));
  if (parts.has('cdn-delay')) rows.push(...cdnDelayRows(await runCdnDelay(browser.context, app, server)));
  if (parts.has('canvas-player')) rows.push(...canvasPlayerRows(await runCanvasPlayer(server)));
  if (parts.has('software-decoder')) rows.push(...softwareDecoderRows(await runSoftwareDecoder(server)));
  if (parts.has('media-jobs')) rows.push(...mediaJobRows(await runMediaJobs({ windowSeconds: Number(process.env.BENCH_MIX_WINDOW_SECONDS ?? 10) })));
  if (parts.has('user-path')) rows.push(...userPathRows(await runUserPath(browser.context, { iterations: Number(process.env.BENCH_ITERATIONS ?? 10), engines: userPathEngines() })));
  if (parts.has('demo-ui')) rows.push(...demoUiRows(await runDemoUi()));
  if (parts.has('whep')) rows.push(...whepFirstFrameRows(await runWhepFirstFrame(browser, { iterations: Number(process.env.BENCH_ITERATIONS ?? 10) })));
  if (parts.has('transcriber')) rows.push(...transcriberRows(await runTranscriber({ repetitions: Number(process.env.BENCH_TRANSCRIBER_SENTENCES ?? 6) })));
  if (parts.has('cluster')) rows.push(...clusterRows(await runCluster({ failovers: Number(process.env.BENCH_FAILOVER_ITERATIONS ?? 5) })));
  if (parts.has('reconnect-outage')) rows.push(...reconnectOutageRows(await runReconnectOutage()));
  if (parts.has('http-fuzz')) rows.push(...httpFuzzRows(await runHttpFuzzBench({ maxExamples: Number(process.env.BENCH_FUZZ_EXAMPLES ?? 20) })));
  if (parts.has('peer-fuzz')) rows.push(...peerFuzzRows(await runPeerFuzzBench()));
  if (parts.has('signal-load')) rows.push(...signalLoadRows(await runSignalLoad(loadOptionsFromEnv())));
  process.stdout.write(`\n${renderTable(rows)}\n`);
} finally {
  await browser.close();
  await app.close();
  await server.close();
}
