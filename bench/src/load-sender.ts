/**
 * The embedded engine's send path alone (bench/README.md "Load: cost per forwarded packet", issue 26): CPU µs per
 * RTP packet that werift senders encrypt and send, as the SFU's downlinks do, with nothing else in the process.
 * `BENCH_SENDER_LINKS` (20) werift peer connections in this process each send one video track to a werift peer in
 * a child process (so that receiving costs are not counted); every tick the same packet (1,100 bytes of payload)
 * goes to every sender, as one source's packet goes to its subscribers, at `BENCH_SENDER_RATE` (5,000) packets/s
 * in all. The process's own CPU time (process.cpuUsage) over `BENCH_SENDER_SECONDS` (5), less that of as long a
 * window sending nothing, per packet sent: a measure that holds on a loaded machine better than the load bench's
 * (no wall-clock limits, no generator), for before/after comparisons of werift's send path. The senders negotiate
 * the server's header extensions (mid, abs-send-time) and the packets look like forwarded ones (extension bit set,
 * their own extensions removed). `BENCH_SENDER_MODE`: `forward` (default) sends as the server does (rtp-send.ts);
 * `werift` through werift's `sendRtp` with Conclave's runtime SRTP patch (werift-patches.ts); `plain` (or
 * `BENCH_SENDER_PLAIN=1`) through werift's `sendRtp` alone; the patch-package patches are in node_modules.
 * Run: `node --import tsx src/load-sender.ts` (prints one JSON line).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket, useH264, type RTCRtpSender } from 'werift';
import { headerExtensions } from '../../packages/server/src/webrtc/codecs.js';

type Message = { kind: 'offer' | 'answer'; index: number; sdp: string } | { kind: 'ready' } | { kind: 'count'; received?: number };

const child = process.argv[2] === 'receiver';

async function receiver(): Promise<void> {
  const peers: RTCPeerConnection[] = [];
  // Packets that arrived and decrypted: the senders' output is checked as a receiver takes it.
  let received = 0;
  process.on('message', (message: Message) => {
    if (message.kind === 'count') process.send?.({ kind: 'count', received } satisfies Message);
    if (message.kind !== 'offer') return;
    void (async () => {
      const pc = new RTCPeerConnection({
        codecs: { video: [useH264()] }, headerExtensions: headerExtensions(), iceAdditionalHostAddresses: ['127.0.0.1'], iceInterfaceAddresses: { udp4: '127.0.0.1' },
      });
      pc.onTrack.subscribe((track) => { track.onReceiveRtp.subscribe(() => { received++; }); });
      peers.push(pc);
      await pc.setRemoteDescription({ type: 'offer', sdp: message.sdp });
      await pc.setLocalDescription(await pc.createAnswer());
      process.send?.({ kind: 'answer', index: message.index, sdp: pc.localDescription?.sdp ?? '' } satisfies Message);
    })();
  });
  process.send?.({ kind: 'ready' } satisfies Message);
  await new Promise(() => undefined);
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function main(): Promise<void> {
  const mode = process.env.BENCH_SENDER_PLAIN === '1' ? 'plain' : process.env.BENCH_SENDER_MODE ?? 'forward';
  if (!['forward', 'werift', 'plain'].includes(mode)) throw new Error(`BENCH_SENDER_MODE: forward, werift or plain, not ${mode}`);
  if (mode === 'werift') await import('../../packages/server/src/webrtc/werift-patches.js');
  const send: (sender: RTCRtpSender, rtp: RtpPacket) => void = mode === 'forward'
    ? (await import('../../packages/server/src/webrtc/rtp-send.js')).sendForwarded
    : (sender, rtp) => { sender.sendRtp(rtp).catch(() => undefined); };
  const links = Number(process.env.BENCH_SENDER_LINKS ?? 20);
  const windows_ = Math.max(2, Number(process.env.BENCH_SENDER_WINDOWS ?? 6));
  const peer: ChildProcess = fork(fileURLToPath(import.meta.url), ['receiver'], { execArgv: ['--import', 'tsx'] });
  try {
    const answers = new Map<number, (sdp: string) => void>();
    await new Promise<void>((resolve) => peer.once('message', () => resolve()));
    peer.on('message', (message: Message) => { if (message.kind === 'answer') answers.get(message.index)?.(message.sdp); });
    const senders: RTCRtpSender[] = [];
    const pcs: RTCPeerConnection[] = [];
    // One link after the other: werift's ICE on a loaded machine copes badly with many at once.
    for (let index = 0; index < links; index++) {
      const pc = new RTCPeerConnection({
        codecs: { video: [useH264()] }, headerExtensions: headerExtensions(), iceAdditionalHostAddresses: ['127.0.0.1'], iceInterfaceAddresses: { udp4: '127.0.0.1' },
      });
      pcs.push(pc);
      const transceiver = pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
      await pc.setLocalDescription(await pc.createOffer());
      if (pc.iceGatheringState !== 'complete') await new Promise<void>((resolve) => pc.iceGatheringStateChange.subscribe((state) => { if (state === 'complete') resolve(); }));
      const answer = new Promise<string>((resolve) => answers.set(index, resolve));
      peer.send({ kind: 'offer', index, sdp: pc.localDescription?.sdp ?? '' } satisfies Message);
      await pc.setRemoteDescription({ type: 'answer', sdp: await answer });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`link ${index} not connected in 60 s`)), 60_000);
        const check = (state: string): void => { if (state === 'connected') { clearTimeout(timer); resolve(); } };
        check(pc.connectionState);
        pc.connectionStateChange.subscribe(check);
      });
      senders.push(transceiver.sender);
    }

    const payload = randomBytes(1100);
    const rounds = Number(process.env.BENCH_SENDER_ROUNDS ?? 200);
    let seq = 0;
    // A fixed amount of work, each round's packets sent at once and then everything they started (microtasks,
    // sends) let finish: CPU time per packet with no wall-clock pacing, so a loaded machine slows it but does not
    // change what it counts. The least of several windows: contention only ever adds.
    const window = async (): Promise<number> => {
      const start = cpuMicros();
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < 5; i++) {
          seq = (seq + 1) & 0xffff;
          const rtp = new RtpPacket(new RtpHeader({ payloadType: 96, sequenceNumber: seq, timestamp: seq * 3000, marker: i === 4, extension: true }), payload);
          for (const sender of senders) send(sender, rtp);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      return (cpuMicros() - start) / (rounds * 5 * senders.length);
    };
    const windows: number[] = [];
    for (let i = 0; i < windows_; i++) windows.push(await window());
    // What the receiving peers decrypted (UDP on loopback may drop some under load; none should mean broken SRTP).
    const counted = new Promise<number>((resolve) => peer.on('message', (message: Message) => { if (message.kind === 'count') resolve(message.received ?? 0); }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    peer.send({ kind: 'count' } satisfies Message);
    const result = {
      mode, links, packets: rounds * 5 * links, sent: rounds * 5 * links * windows_, received: await counted,
      usPerPacket: Math.min(...windows.slice(1)), windows: windows.map((w) => Number(w.toFixed(2))),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await Promise.all(pcs.map((pc) => pc.close()));
  } finally {
    peer.kill();
  }
}

if (child) await receiver();
else await main();
