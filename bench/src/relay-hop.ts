/**
 * The node-to-node relay's cost per hop (issue 39; media-engine.ts exportSource / importSource), on the embedded
 * engine: two EmbeddedEngines in this process stand for two nodes on loopback. A werift publisher on A sends video
 * packets carrying their send time; one subscriber on A receives them through a local forward, one on B through
 * the relay (A's export → B's import → B's downlink). Per packet, the relayed delay minus the local one is what the
 * hop adds. CPU: the process's CPU time per packet sent, over windows alternated over BENCH_RELAY_ROUNDS (3) rounds
 * (medians; a first round warms up, uncounted): no subscriber wanting video; the local subscriber wanting it (a local
 * forward: A's downlink send and the in-process subscriber's receive); the relayed one wanting it (the same, on B,
 * plus the hop: A's export send and B's import receive; streams on demand, nothing crosses the link otherwise),
 * switched with updateSubscription. The third minus the second is the hop's cost, the second minus the first a local
 * forward's.
 * Run: `cd bench && node --import tsx src/relay-hop.ts` (BENCH_RELAY_PPS, 500; BENCH_RELAY_SECONDS, 8).
 * Prints a JSON line and the table rows.
 */
import { loadavg } from 'node:os';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { EmbeddedEngine } from '../../packages/server/src/engine/embedded/embedded-engine.js';
import type { DownlinkNegotiator, SubscriptionWants } from '../../packages/server/src/engine/media-engine.js';
import { mintRelayCredential } from '../../packages/server/src/engine/relay/relay-credential.js';
import { renderTable, type Row } from './table.js';

const PPS = Number(process.env.BENCH_RELAY_PPS ?? 500);
const SECONDS = Number(process.env.BENCH_RELAY_SECONDS ?? 8);
const PAYLOAD_BYTES = 1000;
const VIDEO: SubscriptionWants = { audio: false, bigVideo: true, smallVideo: false, auxVideo: false };

const codecs = () => ({
  audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
  video: [new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }], parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1' })],
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A subscriber peer recording, per packet sequence of the publisher, when it arrived (performance.now()). */
function subscriberPeer(): { pc: RTCPeerConnection; negotiate: DownlinkNegotiator; arrivals: Map<number, number> } {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: codecs() });
  const arrivals = new Map<number, number>();
  pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => {
    const now = performance.now();
    if (rtp.payload.length >= 13) arrivals.set(rtp.payload.readUInt32BE(9), now - rtp.payload.readDoubleBE(1));
  }));
  const negotiate: DownlinkNegotiator = async (offer) => {
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    return pc.localDescription!.sdp;
  };
  return { pc, negotiate, arrivals };
}

const secret = 'bench-relay-secret';
const a = new EmbeddedEngine({ iceAddress: '127.0.0.1', relaySecret: secret });
const b = new EmbeddedEngine({ iceAddress: '127.0.0.1', relaySecret: secret });
a.joinRoom('pub', 'room');
const up = new RTCPeerConnection({ iceUseIpv6: false, codecs: codecs() });
up.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
const video = up.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
for (let i = 0; i < 2; i++) up.addTransceiver('video', { direction: 'sendonly' });
await up.setLocalDescription(await up.createOffer());
await up.setRemoteDescription({ type: 'answer', sdp: (await a.publish('pub', up.localDescription!.sdp)).answerSdp });

let seq = 0;
let sent = 0;
const body = Buffer.alloc(PAYLOAD_BYTES);
body[0] = 0x65; // an IDR NAL header: every packet may start a picture
const perTick = Math.max(1, Math.round(PPS / 100));
const timer = setInterval(() => {
  for (let i = 0; i < perTick; i++) {
    seq = (seq + 1) & 0xffff;
    sent++;
    const payload = Buffer.from(body);
    payload.writeDoubleBE(performance.now(), 1);
    payload.writeUInt32BE(sent, 9);
    void video.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: sent * 90, marker: true, payloadType: 96 }), payload));
  }
}, 10);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** CPU microseconds of this process per packet sent over `seconds`, after a second's warm-up. */
async function cpuWindow(seconds: number): Promise<{ usPerPacket: number; packets: number }> {
  await wait(1000);
  const cpu = process.cpuUsage();
  const from = sent;
  await wait(seconds * 1000);
  const used = process.cpuUsage(cpu);
  const packets = sent - from;
  return { usPerPacket: (used.user + used.system) / packets, packets };
}

const NONE: SubscriptionWants = { audio: false, bigVideo: false, smallVideo: false, auxVideo: false };
const local = subscriberPeer();
a.joinRoom('local', 'room');
await a.subscribe('local', 'pub', NONE, local.negotiate);
const connect = (offer: Parameters<NonNullable<typeof a.exportSource>>[0]) => a.exportSource(offer);
const imported = await b.importSource('room-b', 'pub', mintRelayCredential(secret, 'pub', 'node-b'), connect);
const remote = subscriberPeer();
b.joinRoom('remote', 'room-b');
// Wanting nothing, nothing crosses the node link (streams on demand): switched on for its window only.
await b.subscribe('remote', 'pub', NONE, remote.negotiate);
/** Windows, alternated over ROUNDS to spread the host's load over all three. */
const ROUNDS = Number(process.env.BENCH_RELAY_ROUNDS ?? 3);
const windows = { off: [] as number[], local: [] as number[], relayed: [] as number[] };
// Round 0 warms the JIT up (its windows cost more whatever they hold) and is not counted.
for (let round = 0; round <= ROUNDS; round++) {
  const keep = (list: number[], value: number) => { if (round > 0) list.push(value); };
  keep(windows.off, (await cpuWindow(SECONDS)).usPerPacket);
  await a.updateSubscription('local', 'pub', VIDEO);
  keep(windows.local, (await cpuWindow(SECONDS)).usPerPacket);
  await a.updateSubscription('local', 'pub', NONE);
  await b.updateSubscription('remote', 'pub', VIDEO);
  keep(windows.relayed, (await cpuWindow(SECONDS)).usPerPacket);
  await b.updateSubscription('remote', 'pub', NONE);
}
await a.removeParticipant('local');
await local.pc.close();
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
await b.updateSubscription('remote', 'pub', VIDEO);

// Delay: both subscribers at once, per packet.
const local2 = subscriberPeer();
a.joinRoom('local2', 'room');
await a.subscribe('local2', 'pub', VIDEO, local2.negotiate);
await wait(1000);
local2.arrivals.clear();
remote.arrivals.clear();
await wait(SECONDS * 1000);
const added: number[] = [];
const relayedDelays: number[] = [];
const localDelays: number[] = [];
for (const [id, viaRelay] of remote.arrivals) {
  const direct = local2.arrivals.get(id);
  if (direct === undefined) continue;
  added.push(viaRelay - direct);
  relayedDelays.push(viaRelay);
  localDelays.push(direct);
}
clearInterval(timer);
for (const list of [added, relayedDelays, localDelays]) list.sort((x, y) => x - y);
const load = loadavg().map((v) => v.toFixed(2)).join(' ');
const result = {
  pps: PPS, seconds: SECONDS, loadAverage: load, pairs: added.length,
  addedMs: { p50: percentile(added, 50), p99: percentile(added, 99) },
  localMs: { p50: percentile(localDelays, 50), p99: percentile(localDelays, 99) },
  relayedMs: { p50: percentile(relayedDelays, 50), p99: percentile(relayedDelays, 99) },
  cpuUsPerPacket: windows,
};
const hop = median(windows.relayed) - median(windows.local);
const localForward = median(windows.local) - median(windows.off);
console.log(JSON.stringify({ ...result, localForwardUs: localForward, hopUs: hop }));
const rows: Row[] = [
  { benchmark: 'relay hop (embedded)', figure: result.addedMs.p50.toFixed(2), unit: 'ms added (p50)', notes: `relayed − local delay per packet, ${added.length} packets at ${PPS} pps; load ${load}` },
  { benchmark: 'relay hop (embedded)', figure: result.addedMs.p99.toFixed(2), unit: 'ms added (p99)', notes: `goal ≤ 5 ms: ${result.addedMs.p99 <= 5 ? 'met' : 'not met'}` },
  { benchmark: 'relay hop (embedded)', figure: hop.toFixed(1), unit: 'µs CPU per relayed packet', notes: `A's export send + B's import receive (median of ${ROUNDS} alternated windows); a local forward (its in-process subscriber's receive included) ${localForward.toFixed(1)} µs (${(100 * hop / localForward).toFixed(0)} %)` },
];
console.log(renderTable(rows));
await imported.close();
await Promise.all([a.close(), b.close(), up.close(), remote.pc.close(), local2.pc.close()]);
process.exit(0);
