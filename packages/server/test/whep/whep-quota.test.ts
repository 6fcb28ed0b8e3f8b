import { SERVER_CODE } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/context.js';
import { whepPlayer, whipClient } from '../support/engine-peers.js';
import { closeEmbeddedContext, embeddedContext, whepServer } from '../support/test-context.js';

/* Issue 38.10: WHEP playbacks and WHIP publishes count against a per-app and a per-node quota, refused with a code and counted. */

const apps = [1400000393, 1400000394, 1400000395].map((sdkAppId, i) => ({ sdkAppId, secretKey: `whep-quota-app-${i}-secret-key-0123456` }));
const PUBLISH = PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO | PRIVILEGE.SEND_VIDEO;
const PLAY = PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO;

describe('38.10 WHEP / WHIP sessions are bounded per app and per node', () => {
  let ctx: ServerContext;
  let base: string;
  const cleanups: (() => unknown)[] = [];

  beforeAll(async () => {
    ctx = embeddedContext({ apps, limits: { whepSessionsPerApp: 1, whepSessionsPerNode: 2 } });
    const server = await whepServer(ctx);
    base = server.base;
    cleanups.push(() => closeEmbeddedContext(ctx), server.close);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** POSTs a WHIP publish (or a WHEP play of that publisher) of app `i` in `roomId`; resolves to the status, code and Location. */
  async function post(i: number, kind: 'whip' | 'whep', roomId: number, userId: string): Promise<{ status: number; code?: number; message?: string; location: string | null }> {
    const app = apps[i]!;
    const client = kind === 'whip' ? await whipClient() : await whepPlayer();
    cleanups.push(() => client.pc.close());
    const privilegeMap = kind === 'whip' ? PUBLISH : PLAY;
    const token = await genPrivateMapKey({ sdkAppId: app.sdkAppId, secretKey: app.secretKey, userId, roomId, privilegeMap, expire: 600 });
    const path = kind === 'whip' ? `/whip/v1/${app.sdkAppId}/rooms/${roomId}` : `/whep/v1/${app.sdkAppId}/rooms/${roomId}/users/pub0`;
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/sdp', authorization: `Bearer ${token}` }, body: client.offer });
    const text = await res.text();
    const body = res.status === 201 ? {} : (JSON.parse(text) as { code: number; message: string });
    return { status: res.status, ...body, location: res.headers.get('location') };
  }

  const sample = async (line: string) => {
    const found = (await ctx.metrics.text()).split('\n').find((l) => l.startsWith(`${line} `));
    return found === undefined ? undefined : Number(found.slice(line.length + 1));
  };

  it('38.10 a second session of an app, or a third on the node, is refused WHEP_QUOTA_EXCEEDED (503) and counted; an ended one frees its place', async () => {
    const first = await post(0, 'whip', 4001, 'pub0');
    expect(first.status).toBe(201);
    // The app's one place is taken: another publish, or a playback, of the same app is refused.
    expect(await post(0, 'whip', 4002, 'pub1')).toMatchObject({ status: 503, code: SERVER_CODE.WHEP_QUOTA_EXCEEDED, message: expect.stringMatching(/whepSessionsPerApp/) });
    expect(await post(0, 'whep', 4001, 'viewer')).toMatchObject({ status: 503, code: SERVER_CODE.WHEP_QUOTA_EXCEEDED });
    // Another app has its own place; the node's two are then taken.
    expect((await post(1, 'whip', 4001, 'pub0')).status).toBe(201);
    expect(await post(2, 'whip', 4001, 'pub0')).toMatchObject({ status: 503, code: SERVER_CODE.WHEP_QUOTA_EXCEEDED, message: expect.stringMatching(/whepSessionsPerNode/) });
    expect(await sample('conclave_whep_quota_refusals_total{scope="app"}')).toBe(2);
    expect(await sample('conclave_whep_quota_refusals_total{scope="node"}')).toBe(1);
    expect(await sample('conclave_whep_sessions{kind="whip"}')).toBe(2);
    // The first app's session ends: its place is free again.
    expect((await fetch(`${base}${first.location ?? ''}`, { method: 'DELETE' })).status).toBe(200);
    expect((await post(0, 'whip', 4002, 'pub1')).status).toBe(201);
  });
});
