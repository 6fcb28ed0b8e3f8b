/**
 * Runs only the video-effects benchmark: `node --import tsx src/video-effects-main.ts` in bench/ (after
 * `npm run build`). Prints its table rows; the full `npm run bench` includes them.
 */
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { ServerProcess } from './server-process.js';
import { renderTable } from './table.js';
import { benchVideoEffects } from './video-effects.js';

const server = await ServerProcess.start();
const app = await AppHost.start(server.url);
try {
  const { rows } = await benchVideoEffects(app, server);
  process.stdout.write(`\n${renderTable(rows)}\n`);
} finally {
  await app.close();
  await server.close();
}
