import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/** A loopback TCP port free right now (for a child process a test starts). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
