/**
 * An app backend's receiver of TRTC event callbacks, on a loopback port: keeps each POSTed callback with
 * whether its `Sign` header is base64(HMAC-SHA256(key, body)) — the check a backend written for TRTC makes.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  EventGroupId: number;
  EventType: number;
  EventInfo: Record<string, string | number>;
  signOk: boolean;
}

export interface CallbackSink {
  url: string;
  received: ReceivedEvent[];
  close(): Promise<void>;
}

export async function startCallbackSink(key: string): Promise<CallbackSink> {
  const received: ReceivedEvent[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signOk = req.headers.sign === createHmac('sha256', key).update(body).digest('base64');
      received.push({ ...(JSON.parse(body) as Omit<ReceivedEvent, 'signOk'>), signOk });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"code":0}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    received,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
