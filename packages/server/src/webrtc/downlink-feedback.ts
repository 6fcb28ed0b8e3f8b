/**
 * What a subscriber's downlink carries, from its RTCP (issue 43): the server numbers every packet it sends on the
 * downlink transport-wide (codecs.ts' downlinkCodecs) and Chromium reports each one's arrival in transport-cc
 * feedback, so the estimate is send-side — the bitrate acknowledged over the last second, the share of what was
 * reported on that was lost, and the queueing delay (arrival minus send time, over its minimum of the last ten
 * seconds) as the overuse hint a bottleneck's queue gives before it drops. Without transport-cc (a client that did
 * not negotiate it) the receiver reports' fraction lost and REMB stand in.
 * werift's own parse of the feedback skips status-vector chunks (most of Chromium's) and its send-side estimator
 * keeps every packet it was told of: neither is used; each sender's estimator is replaced by this record.
 */
import { GenericNack, ReceiverEstimatedMaxBitrate, RtcpPayloadSpecificFeedback, RtcpRrPacket, RtcpSrPacket, RtcpTransportLayerFeedback, TransportWideCC,
  type RTCDtlsTransport, type RTCRtpSender, type RtcpPacket } from 'werift';

/** Sent packets remembered for their feedback (transport-wide sequence numbers, modulo). */
const RING = 8192;
/** The window the acknowledged bitrate and loss share are read over. */
const WINDOW_MS = 1000;
/** The queueing delay is read over this last part of the window (a queue filling shows within it). */
const DELAY_WINDOW_MS = 300;
/** The minimum one-way delay is the least of this long (the queue-free path). */
const BASE_DELAY_MS = 10_000;
/** The receive rate is read over the last RATE_SPAN_MS of arrivals, at least MIN_SPAN_MS of them. */
const RATE_SPAN_MS = 500;
const MIN_SPAN_MS = 250;
/** RTP, its extensions, SRTP's tag, UDP and IPv4: what a packet costs on the link beyond its payload. */
export const PACKET_OVERHEAD_BYTES = 60;

/** What the subscriber's link carried over the last window. */
export interface DownlinkEstimate {
  /** Where the figures come from. */
  source: 'transport-cc' | 'receiver-reports' | 'none';
  /** Bits per second the subscriber acknowledged (transport-cc), undefined without it. */
  ackedBps: number | undefined;
  /** Bits per second sent (media and retransmissions). */
  sentBps: number;
  /** Share of the packets reported on that were lost (0..1). */
  loss: number;
  /** Queueing delay now (ms): median one-way delay of the last 300 ms over the least of the last ten seconds. */
  queueMs: number;
  /** The receiver's own estimate (REMB), if it sends one. */
  rembBps: number | undefined;
}

interface Report {
  at: number;
  acked: number;
  received: number;
  lost: number;
}

interface NackPacket {
  feedback: { lost: number[] };
}

/** werift's sender fields the record replaces or reads. */
interface SenderInternals {
  senderBWE: { rtpPacketSent(info: { wideSeq: number; size: number }): void; receiveTWCC(feedback: unknown): void };
  rtpCache: ({ header: { sequenceNumber: number }; payload: Buffer } | undefined)[];
  handleRtcpPacket(packet: RtcpPacket): void;
  ssrc: number;
}

export class DownlinkFeedback {
  readonly #now: () => number;
  readonly #seq = new Int32Array(RING).fill(-1);
  readonly #size = new Uint16Array(RING);
  readonly #sentAt = new Float64Array(RING);
  #reports: Report[] = [];
  #sent: { at: number; bytes: number }[] = [];
  #delays: { at: number; ms: number }[] = [];
  /** Acknowledged packets by arrival time at the subscriber (the receive rate is read from their span). */
  #arrivals: { at: number; arrivalMs: number; bytes: number }[] = [];
  #baseDelays: { at: number; ms: number }[] = [];
  #rrLoss: { at: number; loss: number }[] = [];
  #remb: number | undefined;
  #transportCc = false;
  readonly #transports = new WeakSet<object>();
  #unsubscribes: (() => void)[] = [];
  /** Retransmission bytes a second allowed now (the NACK cap); Infinity when the link is not known to be short. */
  retransmitBudgetBps = Number.POSITIVE_INFINITY;
  #tokens = 0;
  #tokensAt = 0;
  /** Retransmissions the cap refused (for tests and stats). */
  refusedRetransmissions = 0;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Takes over a sender's send-side record (every packet it sends is remembered here) and caps its retransmissions. */
  watchSender(sender: RTCRtpSender): void {
    const s = sender as unknown as SenderInternals;
    s.senderBWE = { rtpPacketSent: (info) => this.sent(info.wideSeq, info.size), receiveTWCC: () => undefined };
    const handle = s.handleRtcpPacket.bind(s);
    s.handleRtcpPacket = (packet: RtcpPacket) => {
      if (packet instanceof RtcpTransportLayerFeedback && packet.feedback instanceof GenericNack) this.#capNack(packet as unknown as NackPacket, s);
      handle(packet);
    };
  }

  /** Reads the RTCP of the downlink's transports (each once). */
  watchTransports(transports: readonly RTCDtlsTransport[]): void {
    for (const transport of transports) {
      if (this.#transports.has(transport)) continue;
      this.#transports.add(transport);
      this.#unsubscribes.push(transport.onRtcp.subscribe((packet) => this.receive(packet)).unSubscribe);
    }
  }

  /** A packet went out with transport-wide sequence number `wideSeq` (16 bits), `size` bytes on the wire. */
  sent(wideSeq: number, size: number): void {
    const at = this.#now();
    const i = wideSeq & (RING - 1);
    this.#seq[i] = wideSeq & 0xffff;
    this.#size[i] = Math.min(size, 0xffff);
    this.#sentAt[i] = at;
    this.#sent.push({ at, bytes: size });
  }

  /** One RTCP packet from the subscriber. */
  receive(packet: RtcpPacket): void {
    if (packet instanceof RtcpTransportLayerFeedback && packet.feedback instanceof TransportWideCC) this.#transportWide(packet.feedback);
    else if (packet instanceof RtcpRrPacket || packet instanceof RtcpSrPacket) {
      for (const report of packet.reports) this.#rrLoss.push({ at: this.#now(), loss: report.fractionLost / 256 });
    } else if (packet instanceof RtcpPayloadSpecificFeedback && packet.feedback instanceof ReceiverEstimatedMaxBitrate) {
      this.#remb = Number(packet.feedback.bitrate);
    }
  }

  #transportWide(feedback: TransportWideCC): void {
    this.#transportCc = true;
    const now = this.#now();
    const report: Report = { at: now, acked: 0, received: 0, lost: 0 };
    let arrivalUs = feedback.referenceTime * 64_000;
    let delta = 0;
    let index = 0;
    const statusOf = (status: number): void => {
      if (index >= feedback.packetStatusCount) return;
      const seq = (feedback.baseSequenceNumber + index) & 0xffff;
      index++;
      const received = status === 1 || status === 2;
      if (received) arrivalUs += feedback.recvDeltas[delta++]?.delta ?? 0;
      const i = seq & (RING - 1);
      if (this.#seq[i] !== seq) return; // not one of ours, or reported already
      this.#seq[i] = -1;
      if (!received) { report.lost++; return; }
      report.received++;
      report.acked += this.#size[i];
      this.#delays.push({ at: now, ms: arrivalUs / 1000 - this.#sentAt[i] });
      this.#arrivals.push({ at: now, arrivalMs: arrivalUs / 1000, bytes: this.#size[i] });
    };
    for (const chunk of feedback.packetChunks) {
      // Run-length chunks (one status, a count) and status vectors (1-bit symbols: 1 received; 2-bit: werift's statuses).
      const c = chunk as unknown as { packetStatus?: number; runLength?: number; symbolList?: number[] };
      if (c.symbolList) for (const symbol of c.symbolList) statusOf(symbol);
      else for (let n = 0; n < (c.runLength ?? 0); n++) statusOf(c.packetStatus ?? 0);
    }
    this.#reports.push(report);
  }

  /** What the link carried over the last window. */
  estimate(): DownlinkEstimate {
    const now = this.#now();
    const since = now - WINDOW_MS;
    this.#reports = this.#reports.filter((r) => r.at > since);
    this.#sent = this.#sent.filter((s) => s.at > since);
    this.#rrLoss = this.#rrLoss.filter((r) => r.at > now - 2 * WINDOW_MS);
    this.#delays = this.#delays.filter((d) => d.at > now - DELAY_WINDOW_MS);
    this.#arrivals = this.#arrivals.filter((a) => a.at > since);
    const sentBps = (this.#sent.reduce((n, s) => n + s.bytes, 0) * 8 * 1000) / WINDOW_MS;
    if (this.#transportCc) {
      const received = this.#reports.reduce((n, r) => n + r.received, 0);
      const lost = this.#reports.reduce((n, r) => n + r.lost, 0);
      const acked = this.#reports.reduce((n, r) => n + r.acked, 0);
      return { source: 'transport-cc', ackedBps: this.#receiveRate() ?? (acked * 8 * 1000) / WINDOW_MS, sentBps, loss: received + lost > 0 ? lost / (received + lost) : 0,
        queueMs: this.#queueMs(now), rembBps: this.#remb };
    }
    if (this.#rrLoss.length > 0) {
      return { source: 'receiver-reports', ackedBps: undefined, sentBps, loss: Math.max(...this.#rrLoss.map((r) => r.loss)), queueMs: 0, rembBps: this.#remb };
    }
    return { source: 'none', ackedBps: undefined, sentBps, loss: 0, queueMs: 0, rembBps: this.#remb };
  }

  /**
   * The rate the acknowledged packets of the window arrived at (their bytes over the span of their arrival times):
   * a saturated bottleneck's own rate, which feedback delayed by its queue would under-read if counted by when it
   * came. Undefined when the window holds too little (then the bytes acknowledged over the window stand in).
   */
  #receiveRate(): number | undefined {
    let last = Number.NEGATIVE_INFINITY;
    for (const a of this.#arrivals) last = Math.max(last, a.arrivalMs);
    // The latest RATE_SPAN_MS of arrivals only: when a queue has just filled, the rate before it would over-read the link.
    const arrivals = this.#arrivals.filter((a) => a.arrivalMs >= last - RATE_SPAN_MS);
    if (arrivals.length < 10) return undefined;
    let first = Number.POSITIVE_INFINITY;
    let firstBytes = 0;
    let bytes = 0;
    for (const a of arrivals) {
      if (a.arrivalMs < first) {
        first = a.arrivalMs;
        firstBytes = a.bytes;
      }
      bytes += a.bytes;
    }
    const span = last - first;
    return span < MIN_SPAN_MS ? undefined : ((bytes - firstBytes) * 8 * 1000) / span;
  }

  #queueMs(now: number): number {
    if (this.#delays.length === 0) return 0;
    const sorted = this.#delays.map((d) => d.ms).sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1];
    this.#baseDelays = this.#baseDelays.filter((d) => d.at > now - BASE_DELAY_MS);
    this.#baseDelays.push({ at: now, ms: sorted[0] });
    const base = Math.min(...this.#baseDelays.map((d) => d.ms));
    return Math.max(0, median - base);
  }

  /**
   * Keeps the retransmissions a NACK asks for within the budget (a token bucket of a quarter second of it): on an
   * overloaded link every lost packet asked for again would add to the overload that lost it.
   */
  #capNack(packet: NackPacket, sender: SenderInternals): void {
    const rate = this.retransmitBudgetBps;
    if (!Number.isFinite(rate)) return;
    const now = this.#now();
    const burst = (rate / 8) * 0.25;
    this.#tokens = Math.min(burst, this.#tokens + ((now - this.#tokensAt) / 1000) * (rate / 8));
    this.#tokensAt = now;
    packet.feedback.lost = packet.feedback.lost.filter((seq) => {
      const cached = sender.rtpCache[seq % 128];
      const bytes = (cached?.payload.length ?? 0) + PACKET_OVERHEAD_BYTES;
      if (this.#tokens < bytes) {
        this.refusedRetransmissions++;
        return false;
      }
      this.#tokens -= bytes;
      return true;
    });
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribes) unsubscribe();
    this.#unsubscribes = [];
  }
}
