/**
 * What the relay conformance cases (relay-cases.ts) are made of: the two engines' context, credentials, the direct
 * connector of two engines in one process, publishers on A, subscribers on B, and the resource counts.
 */
import { expect } from 'vitest';
import { RtpHeader, RtpPacket, type RTCPeerConnection } from 'werift';
import type { EngineHandle, HandleCloseReason, MediaEngine, RelayConnector, RelayCredential, SubscriptionWants } from '../../../src/engine/media-engine.js';
import { mintRelayCredential } from '../../../src/engine/relay/relay-credential.js';
import { publishAndSend, subscriberPeer, uplink, waitFor } from '../../support/engine-peers.js';

/** Two engines of one cluster (their relay's secret), the ids and clean-ups of one case. */
export interface RelayContext {
  /** The exporting node's engine (the publisher's). */
  a: Required<Pick<MediaEngine, 'exportSource' | 'importSource'>> & MediaEngine;
  /** The importing node's engine (the subscribers'). */
  b: Required<Pick<MediaEngine, 'exportSource' | 'importSource'>> & MediaEngine;
  /** A third node's engine (for a relay through B). */
  c: Required<Pick<MediaEngine, 'exportSource' | 'importSource'>> & MediaEngine;
  /** The cluster secret both engines were made with. */
  secret: string;
  id(name: string): string;
  cleanup(fn: () => unknown): void;
}

export interface RelayCase {
  name: string;
  run(ctx: RelayContext): Promise<void>;
}

export const ALL: SubscriptionWants = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };
export const SMALL: SubscriptionWants = { audio: true, bigVideo: false, smallVideo: true, auxVideo: false };

/** B's credential for `sourceId`, as the cluster layer would mint it. */
export function credential(ctx: RelayContext, sourceId: string): RelayCredential {
  return mintRelayCredential(ctx.secret, sourceId, 'node-b');
}

/** The connector of two engines in one process: B's offer goes straight to A. */
export function direct(ctx: RelayContext): RelayConnector {
  return (offer) => ctx.a.exportSource(offer);
}

/** A publisher on A sending audio and big video, in room `room` of A. */
export async function publisherOnA(ctx: RelayContext, room: string): Promise<{ id: string; plis: () => number }> {
  const id = ctx.id('pub');
  ctx.a.joinRoom(id, room);
  const sender = await publishAndSend(ctx.a, id);
  ctx.cleanup(sender.stop);
  return { id, plis: sender.plis };
}

/** A subscriber peer on B, in room `room` of B. */
export function subscriberOnB(ctx: RelayContext, name: string, room: string): { id: string; peer: ReturnType<typeof subscriberPeer> } {
  const id = ctx.id(name);
  ctx.b.joinRoom(id, room);
  const peer = subscriberPeer();
  ctx.cleanup(() => peer.pc.close());
  return { id, peer };
}

/** The reasons a handle's close listeners are told. */
export function closes(handle: EngineHandle): HandleCloseReason[] {
  const told: HandleCloseReason[] = [];
  handle.onClose((reason) => told.push(reason));
  return told;
}

/** A publisher on A, B importing it, and one subscriber on B receiving it; `connect` defaults to `direct`. */
export async function relayed(ctx: RelayContext, connect: RelayConnector = direct(ctx)) {
  const roomA = ctx.id('room-a');
  const roomB = ctx.id('room-b');
  const pub = await publisherOnA(ctx, roomA);
  const imported = await ctx.b.importSource(roomB, pub.id, credential(ctx, pub.id), connect);
  ctx.cleanup(() => imported.close());
  const sub = subscriberOnB(ctx, 'sub', roomB);
  const subscription = await ctx.b.subscribe(sub.id, pub.id, ALL, sub.peer.negotiate);
  await waitFor(() => sub.peer.byKind.video > 10 && sub.peer.byKind.audio > 10, 15_000, 'audio and video at the subscriber on B');
  return { roomA, roomB, pub, imported, sub, subscription };
}

/** The resource counters of an engine (stats(), inspect() where it has one), unknown ones left out. */
export async function resources(engine: MediaEngine): Promise<Record<string, number>> {
  const { peerConnections, handles, uplinks, downlinks, subscriptions, relayExports, relayImports } = engine.stats();
  const report = await engine.inspect?.();
  const counts: Record<string, number | undefined> = {
    uplinks, downlinks, subscriptions, peerConnections, handles, relayExports, relayImports,
    serverHandles: report?.handles, serverPeerConnections: report?.peerConnections,
  };
  return Object.fromEntries(Object.entries(counts).filter((entry): entry is [string, number] => entry[1] !== undefined));
}

/** Waits (bounded) until the engine's resources equal `baseline`. */
export async function backTo(engine: MediaEngine, baseline: Record<string, number>, what: string): Promise<void> {
  let now = await resources(engine);
  const deadline = Date.now() + 8000;
  while (JSON.stringify(now) !== JSON.stringify(baseline) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    now = await resources(engine);
  }
  expect(now, what).toEqual(baseline);
}

/** A publisher on A sending its big video (payload byte 0xb1) and its small video (0x51) on their own m-lines, and audio. */
export async function simulcastPublisherOnA(ctx: RelayContext, room: string): Promise<string> {
  const id = ctx.id('pub');
  ctx.a.joinRoom(id, room);
  const up = await uplink('H264');
  await up.pc.setRemoteDescription({ type: 'answer', sdp: (await ctx.a.publish(id, up.offer)).answerSdp });
  const small = up.pc.getTransceivers()[2]!;
  let seq = 0;
  const timer = setInterval(() => {
    seq++;
    const header = () => new RtpHeader({ sequenceNumber: seq, timestamp: seq * 1800, marker: true });
    void up.video.sender.sendRtp(new RtpPacket(header(), Buffer.from([0x65, 0xb1, 2, 3])));
    void small.sender.sendRtp(new RtpPacket(header(), Buffer.from([0x65, 0x51, 2, 3])));
    void up.audio.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 960 }), Buffer.from([0xf8, 0xff, 0xfe])));
  }, 20);
  ctx.cleanup(async () => { clearInterval(timer); await up.pc.close(); });
  return id;
}

/** A simulcast publisher on A imported into B's room (the import closed at the case's end). */
export async function simulcastImportedOnB(ctx: RelayContext): Promise<{ roomB: string; pub: string }> {
  const roomB = ctx.id('room-b');
  const pub = await simulcastPublisherOnA(ctx, ctx.id('room-a'));
  const imported = await ctx.b.importSource(roomB, pub, credential(ctx, pub), direct(ctx));
  ctx.cleanup(() => imported.close());
  return { roomB, pub };
}

/** Records the second payload byte of every video packet `pc` receives (the layer mark of simulcastPublisherOnA). */
export function layerMarks(pc: RTCPeerConnection): number[] {
  const marks: number[] = [];
  pc.onTrack.subscribe((track) => { if (track.kind === 'video') track.onReceiveRtp.subscribe((rtp) => marks.push(rtp.payload[1] ?? 0)); });
  return marks;
}

/** Sends `count` PLIs from a subscriber peer on its video receivers. */
export async function sendPlis(pc: RTCPeerConnection, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    for (const t of pc.getTransceivers()) {
      const ssrc = t.receiver.tracks[0]?.ssrc;
      if (t.kind === 'video' && ssrc !== undefined) await t.receiver.sendRtcpPLI(ssrc);
    }
  }
}

