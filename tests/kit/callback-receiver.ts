/**
 * A real HTTP receiver of TRTC event callbacks on a loopback port, as an app's backend would run one: it
 * checks each request's `Sign` (base64 HMAC-SHA256 of the body under the callback key) and `SdkAppId`
 * headers and keeps what arrived. It can go down (its port refuses connections) and come back on the same port.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One callback as received. */
export interface ReceivedCallback {
  EventGroupId: number;
  EventType: number;
  CallbackTs: number;
  EventInfo: Record<string, string | number>;
  /** The Sign header verified against the body. */
  signOk: boolean;
  sdkAppId: string | undefined;
}

export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  readonly #key: string;
  #server: Server | undefined;
  #port = 0;

  private constructor(key: string) {
    this.#key = key;
  }

  /** Starts a receiver verifying with `key`, on a free port (or `port`). */
  static async start(key: string, port = 0): Promise<CallbackReceiver> {
    const receiver = new CallbackReceiver(key);
    await receiver.up(port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/trtc-callbacks`;
  }

  /** Listens (again) on its port. */
  async up(port = this.#port): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const expected = Buffer.from(createHmac('sha256', this.#key).update(body).digest('base64'));
        const sign = Buffer.from(String(req.headers.sign ?? ''));
        const signOk = sign.length === expected.length && timingSafeEqual(sign, expected);
        this.received.push({ ...(JSON.parse(body) as Omit<ReceivedCallback, 'signOk' | 'sdkAppId'>), signOk, sdkAppId: req.headers.sdkappid as string | undefined });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"code":0}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#port = (server.address() as AddressInfo).port;
  }

  /** Stops listening: callbacks to it fail until up() again. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** `EventType:UserId` of each callback received, for order checks. */
  trace(): string[] {
    return this.received.map((c) => `${c.EventType}:${c.EventInfo.UserId ?? ''}`);
  }
}
