import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginContext, PluginLogRing, type ContextSources } from '../../plugin-api/create.js';
import { authorise } from './auth.js';

/** What the authorisation request looked like at the server. */
interface Seen {
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
  body: string;
}

describe('38.low credentials in URLs (the SDK side)', () => {
  const seen: Seen[] = [];
  let origin = '';
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, contentType: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { errCode: 0, errMsg: '', sign: 'x', status: 1 } }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('38.low credentials in URLs: the AIDenoiser plugin asks for its authorisation with a POST form, the userSig in the body and not in the URL', async () => {
    const log = new PluginLogRing();
    // authorise reads only the server origin, the error factory and the log of its context.
    const ctx = createPluginContext({ serverOrigin: origin, log } as unknown as ContextSources, '/sdk/assets');
    await authorise(ctx, { sdkAppId: 1400000001, userId: 'den', userSig: 'the-user-sig' });
    log.close();
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/audioAiAuth' });
    expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toMatchObject({ sdkAppId: '1400000001', userId: 'den', userSig: 'the-user-sig', timestamp: expect.stringMatching(/^\d+$/) as string });
  });
});
