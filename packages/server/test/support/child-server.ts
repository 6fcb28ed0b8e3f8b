/**
 * A test server in a process of its own (run with `node --import tsx`): the overrides come as JSON in argv[2];
 * it prints `listening <url>` once up and closes on SIGTERM. For tests whose many clients would otherwise share
 * the server's event loop and blur what the server itself does (the join storm).
 */
import type { ServerOverrides } from '../../src/config/config.js';
import { startTestServer } from './clients.js';

const server = await startTestServer(JSON.parse(process.argv[2] ?? '{}') as ServerOverrides);
process.stdout.write(`listening ${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
