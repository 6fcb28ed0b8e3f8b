import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { RTCPeerConnection } from 'werift';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JanusEngine } from '../../../src/engine/janus/janus-engine.js';

/** A client-like offer with the uplink's four send-only m-lines (audio, big, small, aux video). */
async function uplinkOffer(): Promise<{ pc: RTCPeerConnection; sdp: string }> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, iceInterfaceAddresses: { udp4: '127.0.0.1' }, iceAdditionalHostAddresses: ['127.0.0.1'] });
  pc.addTransceiver('audio', { direction: 'sendonly' });
  for (let i = 0; i < 3; i++) pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, sdp: pc.localDescription!.sdp };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!existsSync('/usr/bin/janus'))('Janus engine (real Janus)', () => {
  let engine: JanusEngine;
  const peers: RTCPeerConnection[] = [];

  beforeAll(async () => {
    engine = await JanusEngine.start({ iceAddress: '127.0.0.1', logger: pino({ level: 'silent' }) });
  }, 30_000);

  afterAll(async () => {
    for (const pc of peers) await pc.close();
    await engine?.close();
  });

  it('spawns Janus and answers a publisher offer (full ICE, with its candidates)', async () => {
    engine.joinRoom('alice', 'room-1');
    const { pc, sdp } = await uplinkOffer();
    peers.push(pc);
    const { answerSdp: answer } = await engine.publish('alice', sdp);
    expect(answer).not.toContain('a=ice-lite');
    expect(answer.match(/^m=/gm)).toHaveLength(4);
    const candidates = answer.split('\r\n').filter((line) => line.startsWith('a=candidate:'));
    expect(candidates.length).toBeGreaterThan(0);
    expect(engine.stats().uplinks).toBe(1);
  });

  it('a Janus crash is supervised: it is restarted and the engine negotiates again', async () => {
    const pid = engine.janusPid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await waitFor(() => engine.janusPid !== undefined && engine.janusPid !== pid, 20_000);
    expect(engine.stats().uplinks).toBe(0); // every handle went with the old Janus
    const { pc, sdp } = await uplinkOffer();
    peers.push(pc);
    expect((await engine.publish('alice', sdp)).answerSdp).toMatch(/^m=audio/m);
  }, 40_000);
});
