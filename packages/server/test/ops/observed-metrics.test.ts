import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { cloudApiHeaders } from '../support/cloud-api-signer.js';
import { httpJson, joined, metricsText, startTestServer, type WsClient } from '../support/clients.js';

/*
 * Issue 41: signalling, the admin API and the cloud API tell their observers what happens; /metrics follows those
 * events (the composition root subscribes the metrics, the parts never call them). The Deps carrying observers instead of Metrics
 * is the layer rule's (layers.test.ts).
 */

const KEY = { secretId: 'AKIDconclaveObservedMetrics01', secretKey: 'observed-metrics-cloud-secret-0123' };
const APP = { sdkAppId: 1400300041, secretKey: 'observed-metrics-app-user-sig-key-0', adminKey: 'observed-metrics-admin-key-012345678', cloudApiKeys: [KEY] };

/** The value of a sample line of the metrics text (`name{labels} value`); 0 when absent (a counter not yet counted). */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
};

describe('metrics through observers (issue 41)', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ apps: [APP], limits: { cloudApiRequestsPerSecond: 1000 } });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
  });

  it("41 metrics through observers: /metrics counts signalling's messages and refusals, and the admin and cloud APIs' actions, as their observers tell them", async () => {
    const lines = {
      messages: 'conclave_signal_messages_total',
      kick: 'conclave_admin_actions_total{action="kick"}',
      removeUser: 'conclave_admin_actions_total{action="cloudapi.RemoveUser"}',
    };
    const before = await metricsText(server);

    const alice = await joined(server, APP, 'alice', '4141');
    clients.push(alice, await joined(server, APP, 'bob', '4141'), await joined(server, APP, 'carol', '4141'));
    const refused = await alice.request('mute-flag', { flag: 'not a number' });
    expect(refused.code).not.toBe(0);
    const refusal = `conclave_errors_total{source="signal",code="${refused.code}"}`;

    const kick = await httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/rooms/4141/users/bob/kick`, { method: 'POST', headers: { authorization: `Bearer ${APP.adminKey}` } });
    expect(kick.status).toBe(200);
    const body = JSON.stringify({ SdkAppId: APP.sdkAppId, RoomId: 4141, UserIds: ['carol'] });
    const removed = await httpJson(`${server.url}/`, { method: 'POST', headers: cloudApiHeaders(KEY, 'RemoveUser', body), body });
    expect(removed.body.Response).not.toHaveProperty('Error');

    const after = await metricsText(server);
    // Three joins and the refused request: four messages; the refusal by its code; one action of each API.
    expect(sample(after, lines.messages) - sample(before, lines.messages)).toBe(4);
    expect(sample(after, refusal) - sample(before, refusal)).toBe(1);
    expect(sample(after, lines.kick) - sample(before, lines.kick)).toBe(1);
    expect(sample(after, lines.removeUser) - sample(before, lines.removeUser)).toBe(1);
  });
});
