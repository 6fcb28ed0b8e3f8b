import type { RTCDtlsTransport, RtpPacket } from '../../webrtc/index.js';

/** RTP header extension of transport-wide sequence numbers (draft-holmer-rmcat-transport-wide-cc-extensions-01). */
export const TRANSPORT_CC_URI = 'http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01';

/** Feedback is sent this often while packets come (Chrome's own receivers send every 50–250 ms). */
const FEEDBACK_INTERVAL_MS = 50;
/** At most this many packet statuses in one feedback packet (keeps it well under the MTU: ~1 byte each). */
const MAX_STATUSES = 600;
/** A received packet's delta is in 250 µs ticks; one feedback's reference time in 64 ms units (256 ticks). */
const TICK_US = 250;
const TICKS_PER_REFERENCE = 256;

/** One arrival: transport-wide sequence number (unwrapped) and arrival time in ticks (250 µs). */
interface Arrival {
  seq: number;
  tick: number;
}

/**
 * A transport-cc feedback packet (RTPFB FMT 15), serialised: statuses as two-bit status-vector chunks (7 each),
 * then the deltas (1 byte for 0..255 ticks, 2 signed bytes otherwise), padded to 32 bits (P bit set).
 * `arrivals` are sorted by seq, all within [baseSeq, baseSeq + count), deltas within ±8 s of each other.
 */
export function serializeTransportCc(senderSsrc: number, mediaSsrc: number, baseSeq: number, count: number,
  arrivals: readonly Arrival[], fbPktCount: number): Buffer {
  const referenceTime = arrivals.length > 0 ? Math.floor(arrivals[0].tick / TICKS_PER_REFERENCE) : 0;
  const statuses = new Uint8Array(count);
  const deltas: number[] = [];
  let previous = referenceTime * TICKS_PER_REFERENCE;
  for (const { seq, tick } of arrivals) {
    const delta = tick - previous;
    previous = tick;
    statuses[seq - baseSeq] = delta >= 0 && delta <= 255 ? 1 : 2;
    deltas.push(delta);
  }
  const chunks = Math.ceil(count / 7);
  const deltaBytes = deltas.reduce((n, d) => n + (d >= 0 && d <= 255 ? 1 : 2), 0);
  const unpadded = 20 + chunks * 2 + deltaBytes;
  const padding = (4 - (unpadded % 4)) % 4;
  const buf = Buffer.alloc(unpadded + padding);
  buf[0] = 0x80 | (padding > 0 ? 0x20 : 0) | 15;
  buf[1] = 205;
  buf.writeUInt16BE(buf.length / 4 - 1, 2);
  buf.writeUInt32BE(senderSsrc >>> 0, 4);
  buf.writeUInt32BE(mediaSsrc >>> 0, 8);
  buf.writeUInt16BE(baseSeq & 0xffff, 12);
  buf.writeUInt16BE(count, 14);
  buf.writeUIntBE(referenceTime & 0xffffff, 16, 3);
  buf[19] = fbPktCount & 0xff;
  let pos = 20;
  for (let c = 0; c < chunks; c++) {
    let chunk = 0xc000; // status vector chunk (T=1), two-bit symbols (S=1)
    for (let i = 0; i < 7; i++) chunk |= (statuses[c * 7 + i] ?? 0) << (12 - 2 * i);
    buf.writeUInt16BE(chunk, pos);
    pos += 2;
  }
  for (const d of deltas) {
    if (d >= 0 && d <= 255) buf[pos++] = d;
    else { buf.writeInt16BE(d, pos); pos += 2; }
  }
  if (padding > 0) buf[buf.length - 1] = padding;
  return buf;
}

/** The part of werift's DTLS transport used here (RTCP is sent as already-serialised packets). */
type FeedbackTransport = Pick<RTCDtlsTransport, 'onRtp' | 'sendRtcp'>;

/**
 * Transport-wide congestion-control feedback for one publisher's uplink (all its m-lines share one transport
 * sequence): the arrival time of every packet, sent back every 50 ms, from which the browser's send-side
 * bandwidth estimation (Chrome's GoogCC) ramps up within seconds on a clean link and backs off on loss or
 * queueing delay. werift has a receiver for it, but one per m-line (each sees part of the sequence, so reports
 * the others' packets lost) and it miscounts its chunks; without any feedback Chrome raises its estimate by
 * ~8 % a second from 300 kbps (a 720p camera stayed at 640×360 for 25 s; issue 26).
 */
export class TransportCcFeedback {
  readonly #transport: FeedbackTransport;
  readonly #senderSsrc: number;
  readonly #extensionId: () => number | undefined;
  #arrivals: Arrival[] = [];
  /** The next sequence number not reported yet (unwrapped); undefined before the first packet. */
  #nextSeq: number | undefined;
  /** The highest sequence number seen (unwrapped), to unwrap the next. */
  #highest = 0;
  #mediaSsrc = 0;
  #fbPktCount = 0;
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #unsubscribe: () => void;
  /** Feedback packets sent (for tests and stats). */
  sent = 0;

  /** @param extensionId the negotiated id of the transport-cc header extension (read per packet: known after negotiation). */
  constructor(transport: FeedbackTransport, senderSsrc: number, extensionId: () => number | undefined) {
    this.#transport = transport;
    this.#senderSsrc = senderSsrc;
    this.#extensionId = extensionId;
    this.#unsubscribe = transport.onRtp.subscribe((rtp) => { this.#received(rtp); }).unSubscribe;
    this.#timer = setInterval(() => { this.flush(); }, FEEDBACK_INTERVAL_MS);
    this.#timer.unref?.();
  }

  #received(rtp: RtpPacket): void {
    const id = this.#extensionId();
    if (id === undefined) return;
    const extension = rtp.header.extensions.find((e) => e.id === id);
    if (!extension || extension.payload.length < 2) return;
    const tick = Math.round(performance.now() * (1000 / TICK_US));
    const wrapped = extension.payload.readUInt16BE(0);
    // Unwrap against the highest so far: the nearest value with these 16 low bits.
    const seq = this.#nextSeq === undefined ? wrapped : this.#highest + (((wrapped - this.#highest + 0x8000) & 0xffff) - 0x8000);
    this.#nextSeq ??= seq;
    if (seq < this.#nextSeq) return; // reported already (as lost): too late to count
    this.#highest = Math.max(seq, this.#highest);
    this.#mediaSsrc = rtp.header.ssrc;
    this.#arrivals.push({ seq, tick });
  }

  /** Sends feedback for the packets received since the last one (nothing when none came). */
  flush(): void {
    if (this.#arrivals.length === 0 || this.#nextSeq === undefined) return;
    const arrivals = this.#arrivals.sort((a, b) => a.seq - b.seq);
    this.#arrivals = [];
    let start = 0;
    while (start < arrivals.length) {
      // One packet: statuses from the next expected sequence number, bounded in count and delta range.
      const base: number = this.#nextSeq;
      let end = start;
      let previous = Math.floor(arrivals[start].tick / TICKS_PER_REFERENCE) * TICKS_PER_REFERENCE;
      while (end < arrivals.length && arrivals[end].seq - base < MAX_STATUSES && Math.abs(arrivals[end].tick - previous) < 0x7fff) {
        previous = arrivals[end].tick;
        end++;
      }
      if (end === start) { // a gap of more than MAX_STATUSES: not reported (a burst lost whole), the next packet starts afresh
        this.#nextSeq = arrivals[start].seq;
        continue;
      }
      const part = dedupe(arrivals.slice(start, end));
      const count = part[part.length - 1].seq - base + 1;
      const packet = serializeTransportCc(this.#senderSsrc, this.#mediaSsrc, base, count, part, this.#fbPktCount);
      this.#fbPktCount = (this.#fbPktCount + 1) & 0xff;
      this.#nextSeq = base + count;
      this.sent++;
      this.#transport.sendRtcp([{ serialize: () => packet }] as unknown as Parameters<FeedbackTransport['sendRtcp']>[0]).catch(() => undefined); // lost feedback: the next one covers it
      start = end;
    }
  }

  /** Stops listening and sending. */
  close(): void {
    clearInterval(this.#timer);
    this.#unsubscribe();
    this.#arrivals = [];
  }
}

/** Keeps the first arrival of each sequence number (a duplicate packet is reported once). */
function dedupe(arrivals: Arrival[]): Arrival[] {
  return arrivals.filter((a, i) => i === 0 || a.seq !== arrivals[i - 1].seq);
}
