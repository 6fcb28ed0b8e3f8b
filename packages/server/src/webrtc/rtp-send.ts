/**
 * The forward path's send (issue 26): one shared packet of a source written to one subscriber's werift sender.
 * It does what werift's `RTCRtpSender.sendRtp` does for such a packet — the sender's SSRC, payload type and
 * continuous sequence numbers and timestamps, its header extensions (mid, abs-send-time, transport-wide sequence),
 * the sender-report counts, the retransmission cache, SRTP, the UDP send — with the bytes written once into one
 * buffer, synchronously: werift cloned the packet, built its extensions as objects (a string-to-Buffer and BigInt
 * arithmetic per packet), serialized the header twice through bit writers, went through two promises, and sorted
 * the keys of an object per packet for its bandwidth estimator. Same bytes on the wire (rtp-send.test.ts).
 * Audio toward a subscriber that negotiated RED goes out as RED (red.ts: the frame after the previous two).
 * Anything else (CSRCs, padding, the packet's own extensions, a pending-RTP sender, other extensions) takes
 * werift's path.
 */
import { RTP_EXTENSION_URI, RtpHeader, type RTCRtpSender, type RtpPacket } from 'werift';
import { RedHistory } from './red.js';
import { protectRtp, srtpTagLength, type SrtpCipherFields } from './srtp-protect.js';
import './werift-patches.js'; // werift's own encryption (retransmissions, other senders) through srtp-protect.ts too

const ONE_BYTE = 0xbede;
const TWO_BYTE = 0x1000;
/** werift's RTP_HISTORY_SIZE: retransmission cache slots per sender. */
const HISTORY = 128;
/** The NTP epoch (1900) in Unix milliseconds. */
const NTP_EPOCH_MS = Date.UTC(1900, 0, 1);

/** One header extension a sender writes: a fixed value (mid, rid) or one made per packet. */
interface Extension {
  id: number;
  kind: 'fixed' | 'abs-send-time' | 'transport-cc';
  value: Buffer | undefined;
  length: number;
}

/** werift's SRTP context of a transport (SrtpContext): its cipher and the rollover counter per SSRC. */
interface SrtpContextFields {
  cipher: SrtpCipherFields;
  getSrtpSsrcState(ssrc: number): { rolloverCounter: number };
  updateRolloverCount(sequenceNumber: number, state: { rolloverCounter: number }): void;
}

/** The fields of werift's RTCDtlsTransport the send reads and counts. */
interface TransportFields {
  state: string;
  transportSequenceNumber: number;
  bytesSent: number;
  packetsSent: number;
  srtp: { localContext: SrtpContextFields } | undefined;
  config: { debug?: { outboundPacketLoss?: number } };
  iceTransport: { connection: { conclaveSendNow(data: Buffer): void } };
}

/** The fields of werift's RTCRtpSender the send reads and keeps up to date, as its dispatchRtp does. */
interface SenderFields {
  stopped: boolean;
  pendingRtpEnabled: boolean;
  redRedundantPayloadType: number | undefined;
  codec: { payloadType: number } | undefined;
  ssrc: number;
  mid: string | undefined;
  rtpStreamId: string | undefined;
  repairedRtpStreamId: string | undefined;
  headerExtensions: { id: number; uri: string }[] | undefined;
  dtlsTransport: TransportFields | undefined;
  sequenceNumber: number | undefined;
  timestamp: number | undefined;
  seqOffset: number;
  timestampOffset: number;
  rtpContinuityPending: boolean;
  pendingTimestampStep: number;
  conclaveSentAt: number | undefined;
  rtpTimestamp: number;
  octetCount: number;
  headerBytesSent: number;
  packetCount: number;
  rtpCache: unknown[];
  rtcpRunning: boolean;
  runRtcp(): Promise<void>;
  senderBWE: { rtpPacketSent(info: { wideSeq: number; size: number; sendingAtMs: number; sentAtMs: number }): void };
}

/** A sender's extensions as written, made again when its negotiated extensions or mid change. */
interface Plan {
  source: SenderFields['headerExtensions'];
  mid: string | undefined;
  /** undefined: an extension this path does not write (werift's path then). */
  extensions: Extension[] | undefined;
  transportCc: boolean;
  /** The longest extension value (a one-byte header takes at most 16 bytes). */
  longest: number;
}

const plans = new WeakMap<SenderFields, Plan>();
/** Each RED sender's last frames. */
const redHistories = new WeakMap<SenderFields, RedHistory>();

function planOf(s: SenderFields): Plan {
  let plan = plans.get(s);
  if (plan && plan.source === s.headerExtensions && plan.mid === s.mid) return plan;
  const extensions: Extension[] = [];
  let supported = true;
  const fixed = (id: number, value: string | undefined): void => {
    if (value) extensions.push({ id, kind: 'fixed', value: Buffer.from(value), length: Buffer.byteLength(value) });
  };
  for (const { id, uri } of s.headerExtensions ?? []) {
    switch (uri) {
      case RTP_EXTENSION_URI.sdesMid: fixed(id, s.mid); break;
      case RTP_EXTENSION_URI.sdesRTPStreamID: fixed(id, s.rtpStreamId); break;
      case RTP_EXTENSION_URI.repairedRtpStreamId: fixed(id, s.repairedRtpStreamId); break;
      case RTP_EXTENSION_URI.absSendTime: extensions.push({ id, kind: 'abs-send-time', value: undefined, length: 3 }); break;
      case RTP_EXTENSION_URI.transportWideCC: extensions.push({ id, kind: 'transport-cc', value: undefined, length: 2 }); break;
      default: supported = false; // werift writes nothing for the others; its own path keeps that exact
    }
  }
  extensions.sort((a, b) => a.id - b.id);
  plan = {
    source: s.headerExtensions, mid: s.mid,
    extensions: supported ? extensions : undefined,
    transportCc: extensions.some((e) => e.kind === 'transport-cc'),
    longest: Math.max(0, ...extensions.map((e) => e.length)),
  };
  plans.set(s, plan);
  return plan;
}

/**
 * The packet werift's retransmission cache holds: the header parsed again from the bytes sent, only when a NACK
 * asks for it (werift reads `header` and `payload`, and re-encrypts them: the same bytes again).
 */
class SentPacket {
  readonly payload: Buffer;
  readonly #head: Buffer;
  #header: RtpHeader | undefined;

  constructor(head: Buffer, payload: Buffer) {
    this.#head = head;
    this.payload = payload;
  }

  get header(): RtpHeader {
    return this.#header ??= RtpHeader.deSerialize(this.#head);
  }
}

/** abs-send-time (6.18 fixed-point seconds, 24 bits) of a performance.now() reading, as werift derives it from ntpTime. */
function absSendTime(at: number): number {
  const now = performance.timeOrigin + at - NTP_EPOCH_MS; // werift's ntpTime, term for term (same rounding)
  const seconds = Math.floor(now / 1e3);
  const fraction = Math.min(Math.floor((now - seconds * 1e3) * 4294967.296), 4294967295);
  return ((seconds & 0x3f) << 18) | (fraction >>> 14);
}

/**
 * Sends `rtp` (shared by every subscriber of its source: not changed) on `sender`, as `sender.sendRtp(rtp)` would;
 * dropped as werift drops it when the sender cannot send yet. Never throws. `plain`: never RED (an end-to-end
 * encrypted source's audio goes out as the primary codec the RED m-line also negotiated).
 */
export function sendForwarded(sender: RTCRtpSender, rtp: RtpPacket, plain = false): void {
  const s = sender as unknown as SenderFields;
  const transport = s.dtlsTransport;
  const codec = s.codec;
  if (s.stopped || !codec || transport?.state !== 'connected') {
    if (s.pendingRtpEnabled) sender.sendRtp(rtp).catch(() => undefined); // a lost packet on a link not (or no longer) up: RTP tolerates it
    return;
  }
  const source = rtp.header;
  const plan = planOf(s);
  const extensions = plan.extensions;
  const profile = source.extensionProfile;
  const context = transport.srtp?.localContext;
  if (!extensions || !context || s.pendingRtpEnabled || source.csrc.length > 0 ||
    source.padding || source.extensions.length > 0 || (profile !== ONE_BYTE && profile !== TWO_BYTE) ||
    (profile === ONE_BYTE && plan.longest > 16) || transport.config.debug?.outboundPacketLoss) {
    sender.sendRtp(rtp).catch(() => undefined); // a packet lost on a closing link: RTP tolerates it, the link's state tells the rest
    return;
  }

  // Sequence numbers and timestamps continue across a change of source (werift's replaceRTP).
  const red = plain ? undefined : s.redRedundantPayloadType;
  if (s.rtpContinuityPending) {
    redHistories.get(s)?.clear();
    if (s.sequenceNumber !== undefined && s.timestamp !== undefined) {
      s.seqOffset = (s.sequenceNumber + 1 - source.sequenceNumber) & 0xffff;
      s.timestampOffset = (s.timestamp + s.pendingTimestampStep - source.timestamp) >>> 0;
    }
    s.rtpContinuityPending = false;
    s.pendingTimestampStep = 1;
  }
  const seq = (source.sequenceNumber + s.seqOffset) & 0xffff;
  const timestamp = (source.timestamp + s.timestampOffset) >>> 0;
  s.sequenceNumber = seq;
  s.timestamp = timestamp;

  // The header's size: 12 bytes, then the extension block (RFC 8285) padded to 32-bit words.
  const perExtension = profile === ONE_BYTE ? 1 : 2;
  let extensionBytes = 0;
  for (const extension of extensions) extensionBytes += perExtension + extension.length;
  const withExtension = extensions.length > 0 || source.extension;
  const extensionWords = (extensionBytes + 3) >> 2;
  const headLength = 12 + (withExtension ? 4 + extensionWords * 4 : 0);
  let payload = rtp.payload;
  if (red !== undefined) {
    let history = redHistories.get(s);
    if (!history) redHistories.set(s, history = new RedHistory());
    payload = history.wrap(red, payload, timestamp);
  }
  const out = Buffer.allocUnsafe(headLength + payload.length + srtpTagLength(context.cipher));

  out[0] = withExtension ? 0x90 : 0x80;
  const payloadType = plain && s.redRedundantPayloadType !== undefined ? s.redRedundantPayloadType : codec.payloadType;
  out[1] = (source.marker ? 0x80 : 0) | (payloadType & 0x7f);
  out.writeUInt16BE(seq, 2);
  out.writeUInt32BE(timestamp, 4);
  out.writeUInt32BE(s.ssrc >>> 0, 8);
  const sentAt = performance.now();
  if (withExtension) {
    out.writeUInt16BE(profile, 12);
    out.writeUInt16BE(extensionWords, 14);
    let at = 16;
    for (const extension of extensions) {
      if (perExtension === 1) out[at++] = (extension.id << 4) | (extension.length - 1);
      else {
        out[at++] = extension.id;
        out[at++] = extension.length;
      }
      if (extension.kind === 'fixed') {
        (extension.value as Buffer).copy(out, at);
      } else if (extension.kind === 'abs-send-time') {
        out.writeUIntBE(absSendTime(sentAt), at, 3);
      } else {
        transport.transportSequenceNumber = (transport.transportSequenceNumber + 1) & 0xffff;
        out.writeUInt16BE(transport.transportSequenceNumber, at);
      }
      at += extension.length;
    }
    out.fill(0, at, headLength);
  }

  // werift's sender-report counts and retransmission cache.
  s.conclaveSentAt = sentAt;
  s.rtpTimestamp = timestamp;
  s.octetCount += payload.length;
  s.headerBytesSent += headLength;
  s.packetCount = (s.packetCount + 1) >>> 0;
  s.rtpCache[seq % HISTORY] = new SentPacket(out.subarray(0, headLength), payload);

  try {
    const state = context.getSrtpSsrcState(s.ssrc);
    context.updateRolloverCount(seq, state);
    protectRtp(context.cipher, out, headLength, payload, s.ssrc, seq, state.rolloverCounter);
    transport.bytesSent += out.length;
    transport.packetsSent++;
    transport.iceTransport.connection.conclaveSendNow(out);
  } catch {
    // werift's RTCDtlsTransport.sendRtp logs and drops such a packet
  }
  if (!s.rtcpRunning) void s.runRtcp();
  // Only a sender that numbers packets transport-wide gets feedback its bandwidth estimator would match.
  if (plan.transportCc) {
    const now = Date.now();
    s.senderBWE.rtpPacketSent({ wideSeq: transport.transportSequenceNumber, size: out.length, sendingAtMs: now, sentAtMs: now });
  }
}
