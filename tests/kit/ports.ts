import { createSocket } from 'node:dgram';

/**
 * A free TCP port on loopback (or on `host`): the server's own helper, which its Janus supervisor uses too, so
 * there is one way of choosing a port.
 */
export { freePort } from '../../packages/server/src/lifecycle/free-port.js';

/** A free UDP port on loopback. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}
