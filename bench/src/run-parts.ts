/**
 * Some parts of the bench alone: `node --import tsx src/run-parts.ts <part>…` in bench/ after `npm run build`,
 * parts among cdn-delay, cross-room, canvas-player, media-jobs, cluster, software-decoder. Prints their table rows.
 */
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { canvasPlayerRows, runCanvasPlayer } from './canvas-player.js';
import { cdnDelayRows, runCdnDelay } from './cdn-delay.js';
import { crossRoomDelayRows, runCrossRoomDelay } from './cross-room-delay.js';
import { clusterRows, runCluster } from './cluster.js';
import { mediaJobRows, runMediaJobs } from './media-jobs.js';
import { ServerProcess } from './server-process.js';
import { runSoftwareDecoder, softwareDecoderRows } from './software-decoder.js';
import { renderTable, type Row } from './table.js';

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
  if (parts.has('cluster')) rows.push(...clusterRows(await runCluster({ failovers: Number(process.env.BENCH_FAILOVER_ITERATIONS ?? 5) })));
  process.stdout.write(`\n${renderTable(rows)}\n`);
} finally {
  await browser.close();
  await app.close();
  await server.close();
}
