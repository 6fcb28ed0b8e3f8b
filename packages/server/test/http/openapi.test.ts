import { readFileSync } from 'node:fs';
import { CLOUD_API_ROUTE, HTTP_ROUTES } from '@conclave/protocol/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, startTestServer } from '../support/clients.js';
import { openApiText } from '../../src/http/write-openapi.js';

const APP = { sdkAppId: 1400300001, secretKey: 'openapi-test-secret-0123456789', adminKey: 'openapi-admin-key-0123456789' };
type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };

describe('OpenAPI description generated from the schemas', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ apps: [APP] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the committed openapi.json is the generated one (run `npm run openapi -w @conclave/server` after changing a schema)', () => {
    expect(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')).toBe(openApiText());
  });

  it('the served document is the generated one', async () => {
    const res = await httpJson(`${server.url}/admin/openapi.json`);
    expect(res.status).toBe(200);
    expect((res.body as Doc).openapi).toMatch(/^3\./);
    expect(res.body).toEqual(JSON.parse(openApiText()));
  });

  it('lists exactly the routes the server answers: each documented path is routed, undocumented ones are not', async () => {
    const doc = JSON.parse(openApiText()) as Doc;
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
    expect(documented).toEqual([...Object.values(HTTP_ROUTES), CLOUD_API_ROUTE].map((r) => `${r.method} ${r.path}`).sort());
    const concrete = (path: string) => path.replace('{sdkAppId}', String(APP.sdkAppId)).replace('{roomKey}', '1').replace('{userId}', 'nobody');
    // The cloud API is its own transport at / (every other method there is the demo app's or a 404), tested below.
    for (const [path, ops] of Object.entries(doc.paths).filter(([path]) => path !== CLOUD_API_ROUTE.path)) {
      // A method the path does not document answers 405 from the router (not the file server's 404).
      const unused = ['GET', 'POST', 'DELETE'].find((m) => !Object.keys(ops).includes(m.toLowerCase()))!;
      expect([path, (await httpJson(`${server.url}${concrete(path)}`, { method: unused })).status]).toEqual([path, 405]);
    }
    for (const path of ['/api/v1/nothing', '/admin/v1/apps/1/nothing', '/admin/v2/apps']) {
      expect([path, (await httpJson(`${server.url}${path}`)).status]).toEqual([path, 404]);
    }
  });

  it("documents TRTC's server API as one signed POST to /, and an unsigned request there is refused in the API's error shape", async () => {
    const doc = JSON.parse(openApiText()) as Doc & { components: { securitySchemes: Record<string, unknown> } };
    expect(doc.paths['/'].post.operationId).toBe('cloudApi');
    expect(doc.components.securitySchemes.tc3).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    const res = await httpJson(`${server.url}/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-tc-action': 'DescribeRoomInfo', 'x-tc-version': '2019-07-22' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Response: { Error: { Code: 'AuthFailure.SignatureFailure' }, RequestId: expect.any(String) } });
  });
});
