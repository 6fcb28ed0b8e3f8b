import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A WebSocket endpoint that accepts connections and then never answers: a signalling server that
 * hangs. Counts the connections it accepted.
 */
export class SilentSignalServer {
  readonly #http: Server;
  readonly #sockets = new Set<Duplex>();
  connections = 0;
  readonly url: string;

  private constructor(http: Server, url: string) {
    this.#http = http;
    this.url = url;
  }

  static async start(): Promise<SilentSignalServer> {
    const http = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const server = new SilentSignalServer(http, `ws://127.0.0.1:${(http.address() as AddressInfo).port}/signal`);
    http.on('upgrade', (req, socket) => {
      const key = String(req.headers['sec-websocket-key'] ?? '');
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      socket.on('error', () => undefined);
      server.connections++;
      server.#sockets.add(socket);
    });
    return server;
  }

  close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    return new Promise((resolve) => this.#http.close(() => resolve()));
  }
}
