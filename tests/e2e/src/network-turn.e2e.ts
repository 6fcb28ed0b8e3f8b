/**
 * Must show 4 (issue 17): coturn started by the test with use-auth-secret; the app passes no turnServer;
 * the server's scheduling hands out time-limited TURN credentials and forces relay for the app; both
 * pages' nominated candidate pairs are relay and media flows; an expired credential is refused by coturn.
 */
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { TEST_APP } from './harness/server.js';
import { TurnServer } from '../../kit/turn-server.js';

const SECRET = 'conclave-e2e-turn-static-secret';

/** Candidate types of the nominated, succeeded pairs of every connected peer connection of a page. */
const nominatedTypes = (page: Page) => page.evaluate(async () => {
  const found: string[] = [];
  for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    if (pc.connectionState !== 'connected') continue;
    const byId = new Map<string, { type: string; candidateType?: string; localCandidateId?: string; nominated?: boolean; state?: string }>();
    (await pc.getStats()).forEach((s) => byId.set(s.id, s));
    for (const s of byId.values()) {
      if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') found.push(byId.get(s.localCandidateId ?? '')?.candidateType ?? 'unknown');
    }
  }
  return found;
});

/** Relay candidates a fresh peer connection gathers with the given TURN credential (0 when coturn refuses it). */
const relayCandidates = (page: Page, server: RTCIceServer) => page.evaluate(async (ice) => {
  const pc = new RTCPeerConnection({ iceServers: [ice], iceTransportPolicy: 'relay' });
  let relays = 0;
  pc.onicecandidate = (e) => { if (e.candidate?.type === 'relay') relays++; };
  pc.createDataChannel('probe');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') resolve(); };
    setTimeout(resolve, 15_000);
  });
  pc.close();
  return relays;
}, server);

describe('TURN credentials from scheduling (coturn use-auth-secret)', () => {
  let turn: TurnServer;
  let fx: AppFixture;

  beforeAll(async () => {
    turn = await TurnServer.start({ kind: 'secret', secret: SECRET });
    fx = await startAppFixture({
      apps: [{ ...TEST_APP, iceTransportPolicy: 'relay' }],
      turn: { urls: [turn.url], secret: SECRET, ttlSeconds: 600 },
    });
  });

  afterAll(async () => {
    await stopAppFixture(fx);
    await turn?.stop();
  });

  it('coturn with use-auth-secret; the app passes no turnServer; scheduling forces relay; both pages\' nominated pairs are relay and media flows; expired credentials are refused', async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    expect(await join(alice, fx.server, 'alice', { roomId: 9501 })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'bob', { roomId: 9501 })).toEqual({ ok: true });
    for (const [page, other] of [[alice, 'bob'], [bob, 'alice']] as const) {
      await expect.poll(async () => (await eventsOf(page, 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain(other);
      await watch(page, other);
    }
    for (const page of [alice, bob]) {
      await expect.poll(async () => (await media(page)).framesDecoded, { timeout: 45_000, interval: 500 }).toBeGreaterThan(0);
      await expect.poll(async () => (await media(page)).audioEnergy, { timeout: 20_000, interval: 500 }).toBeGreaterThan(0);
      const types = await nominatedTypes(page);
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(['relay']));
    }
    // The same REST credential form, valid vs. expired: coturn allocates a relay only for the valid one.
    const credential = (expiry: number) => {
      const username = `${expiry}:probe`;
      return { urls: turn.url, username, credential: createHmac('sha1', SECRET).update(username).digest('base64') };
    };
    const now = Math.floor(Date.now() / 1000);
    expect(await relayCandidates(alice, credential(now + 600))).toBeGreaterThan(0);
    expect(await relayCandidates(alice, credential(now - 60))).toBe(0);
    await alice.close();
    await bob.close();
  });
});
