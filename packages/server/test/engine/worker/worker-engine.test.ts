import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/engine/media-engine.js';
import { WorkerEngine } from '../../../src/engine/worker/worker-engine.js';
import { publishAndSend, subscriberPeer, waitFor } from '../../support/engine-peers.js';

const ALL = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };

/** The native media worker (worker/): what the conformance suite does not cover. Its first run builds it (worker/build.sh). */
describe('42 media worker', () => {
  let engine: WorkerEngine;
  beforeAll(async () => { engine = await WorkerEngine.start({ iceAddress: '127.0.0.1', sourceWaitMs: 1500 }); }, 900_000);
  afterAll(async () => { await engine?.close(); });

  it('42 worker: a crash of the worker is a supervised restart told as engine-restarted; its handles close, and media flows again through the new worker', async () => {
    const events: EngineEvent[] = [];
    const off = engine.onEvent((event) => events.push(event));
    engine.joinRoom('crash-pub', 'crash-room');
    engine.joinRoom('crash-sub', 'crash-room');
    const sender = await publishAndSend(engine, 'crash-pub');
    const first = subscriberPeer();
    const handle = await engine.subscribe('crash-sub', 'crash-pub', ALL, first.negotiate);
    await waitFor(() => first.byKind.video > 10, 15_000, 'video before the crash');
    const pid = engine.process.pid;
    engine.process.kill('SIGKILL');
    await waitFor(() => events.some((e) => e.type === 'engine-restarted'), 10_000, 'engine-restarted');
    expect(handle.closeReason).toBe('engine-restarted');
    expect(engine.stats()).toMatchObject({ uplinks: 0, downlinks: 0, subscriptions: 0 });
    expect(engine.process.pid).not.toBe(pid);
    await sender.stop();
    await first.pc.close();
    // The SDK's reconnection: publish and subscribe again, on the new worker.
    const again = await publishAndSend(engine, 'crash-pub');
    const second = subscriberPeer();
    await engine.subscribe('crash-sub', 'crash-pub', ALL, second.negotiate);
    await waitFor(() => second.byKind.video > 10 && second.byKind.audio > 10, 15_000, 'audio and video after the restart');
    await again.stop();
    await second.pc.close();
    off();
    await engine.removeParticipant('crash-sub');
    await engine.removeParticipant('crash-pub');
  }, 60_000);

  it('42 worker: PLI from a subscriber reaches the publisher\'s matching stream', async () => {
    engine.joinRoom('pli-pub', 'pli-room');
    engine.joinRoom('pli-sub', 'pli-room');
    const sender = await publishAndSend(engine, 'pli-pub');
    const sub = subscriberPeer();
    await engine.subscribe('pli-sub', 'pli-pub', ALL, sub.negotiate);
    await waitFor(() => sub.byKind.video > 10, 15_000, 'video at the subscriber');
    const before = sender.plis();
    const receiver = sub.pc.getTransceivers().find((t) => t.kind === 'video' && t.receiver.tracks.length > 0)?.receiver;
    expect(receiver, 'the subscriber\'s video receiver').toBeDefined();
    const ssrc = receiver!.tracks[0]?.ssrc;
    expect(ssrc).toBeDefined();
    await receiver!.sendRtcpPLI(ssrc!);
    await waitFor(() => sender.plis() > before, 5000, 'a PLI at the publisher');
    await sender.stop();
    await sub.pc.close();
    await engine.removeParticipant('pli-sub');
    await engine.removeParticipant('pli-pub');
  }, 60_000);
});
