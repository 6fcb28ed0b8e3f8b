import { createServer, type AddressInfo } from 'node:net';

/**
 * A TCP port free right now on `host` (loopback unless told), for a child process about to listen on it (the
 * spawned Janus; the servers, Redis and nginx the tests start). Another process may take it before the child
 * does: a caller that cannot tolerate that retries with a new port.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
