/**
 * Entry point of the server child process: the same startServer() the `conclave-server` CLI runs,
 * configured from the environment like the CLI, plus an IPC channel so the parent can read
 * stats() (the CLI has no endpoint for them). It does nothing else, so its CPU time is the server's.
 */
import { startServer } from '@conclave/server';
import type { ChildReply, ChildRequest } from './server-process.js';

const server = await startServer();

const send = (reply: ChildReply) => process.send?.(reply);
send({ type: 'ready', url: server.url, port: server.port, config: server.config });

process.on('message', (message: ChildRequest) => {
  if (message.type === 'stats') {
    send({ type: 'stats', id: message.id, stats: server.stats(), cpu: process.cpuUsage() });
  } else if (message.type === 'close') {
    void server.close().finally(() => process.exit(0));
  }
});
// The parent went away: don't linger.
process.on('disconnect', () => process.exit(0));
