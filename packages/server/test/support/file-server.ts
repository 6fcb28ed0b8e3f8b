import { afterAll, beforeAll } from 'vitest';
import type { ServerOverrides } from '../../src/config/config.js';
import type { RunningServer } from '../../src/server.js';
import { startTestServer, type WsClient } from './clients.js';

/** A test server shared by the tests of a describe block (or file), and the clients they open on it. */
export interface FileServer {
  /** The running server (from the block's first test on). */
  readonly server: RunningServer;
  /** Clients to close when the block ends. */
  readonly clients: WsClient[];
}

/** Starts a test server before the block's first test and closes it, and its clients, after the last. */
export function fileServer(overrides: ServerOverrides = {}): FileServer {
  let running: RunningServer | undefined;
  const clients: WsClient[] = [];
  beforeAll(async () => {
    running = await startTestServer(overrides);
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) client.close();
    await running?.close();
  });
  return {
    get server() {
      if (!running) throw new Error('the file server is not started yet: use it inside a test');
      return running;
    },
    clients,
  };
}
