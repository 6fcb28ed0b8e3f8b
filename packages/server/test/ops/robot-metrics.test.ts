import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joined, metricsText, startTestServer, type WsClient } from '../support/clients.js';

/*
 * Server-side robots in /metrics and the admin API's room view (issue 28's leftover): a transcriber robot whose
 * recognizer is a command that dies at once (the configured-command form of recognizerFromEnv) runs, is listed
 * with its engine, counts its recognizer failures, and is given up after five in a minute.
 */

const APP = { sdkAppId: 1400300031, secretKey: 'robot-metrics-app-user-sig-key-012', adminKey: 'robot-metrics-admin-key-0123456789' };

/** The value of a sample line of the metrics text (`name{labels} value`), or undefined. */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('transcriber robots in /metrics and the admin room view', () => {
  let server: RunningServer;
  let alice: WsClient | undefined;
  const saved = { command: process.env.CONCLAVE_TRANSCRIBER_COMMAND, languages: process.env.CONCLAVE_TRANSCRIBER_LANGUAGES };

  beforeAll(async () => {
    process.env.CONCLAVE_TRANSCRIBER_COMMAND = '/bin/false';
    process.env.CONCLAVE_TRANSCRIBER_LANGUAGES = 'en';
    server = await startTestServer({ apps: [APP] });
  });
  afterAll(async () => {
    alice?.close();
    await server.close();
    for (const [name, value] of [['CONCLAVE_TRANSCRIBER_COMMAND', saved.command], ['CONCLAVE_TRANSCRIBER_LANGUAGES', saved.languages]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('a running robot is counted by engine and listed in its room; its recognizer failures are counted; given up, it is gone from both', async () => {
    const room = () => httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/rooms/4242`, { headers: { authorization: `Bearer ${APP.adminKey}` } });
    expect(sample(await metricsText(server), 'conclave_transcriber_robots{engine="false"}')).toBe(0);
    alice = await joined(server, APP, 'alice', '4242');
    expect((await alice.request('mute-flag', { flag: 8 })).code).toBe(0);
    const started = await alice.request('transcriber-start', { sourceLanguage: 'en' });
    expect(started.code).toBe(0);
    const robotId = 'transcriber_4242_robot_alice';

    expect(sample(await metricsText(server), 'conclave_transcriber_robots{engine="false"}')).toBe(1);
    expect((await room()).body.robots).toEqual([expect.objectContaining({ robotId, kind: 'transcriber', engine: 'false', sourceLanguage: 'en', audioSeconds: 0 })]);

    // Its recognizer dies at every start: five failures in a minute and the robot stops.
    await expect.poll(async () => sample(await metricsText(server), 'conclave_transcriber_failures_total'), { timeout: 20_000, interval: 250 }).toBeGreaterThanOrEqual(5);
    await expect.poll(async () => (await room()).body.robots, { timeout: 10_000, interval: 250 }).toEqual([]);
    const text = await metricsText(server);
    expect(sample(text, 'conclave_transcriber_robots{engine="false"}')).toBe(0);
    expect(sample(text, 'conclave_transcribed_audio_seconds_total')).toBe(0);
    // The failures of the robot that ended stay counted.
    expect(sample(text, 'conclave_transcriber_failures_total')).toBeGreaterThanOrEqual(5);
  });
});
