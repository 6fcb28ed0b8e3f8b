import { createServer, type Socket } from 'node:net';

/** What a TcpListener does with a connection: nothing (a port that hangs), hang up at once, or answer garbage. */
export type ListenerBehaviour = 'silent' | 'close' | 'garbage';

/** A TCP listener on loopback that counts the connections it gets (is the server dialling it?). */
export interface TcpListener {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** Starts a TcpListener on a free loopback port. */
export async function tcpListener(behaviour: ListenerBehaviour): Promise<TcpListener> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (behaviour === 'close') socket.destroy();
    if (behaviour === 'garbage') socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A loopback port nothing listens on (it did a moment ago). */
export async function closedPort(): Promise<number> {
  const l = await tcpListener('close');
  await l.close();
  return l.port;
}
