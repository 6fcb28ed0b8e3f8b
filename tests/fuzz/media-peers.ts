/**
 * werift peers driven over the real signalling protocol, as the SDK drives its links: a publisher's uplink
 * (opus and three video m-lines, sendonly; the server answers `publish`), a subscriber's one downlink (it answers
 * every `downlink-offer` push), and the raw side an attacker uses once ICE, DTLS and SRTP are up: SRTP and SRTCP
 * protected with the link's real session keys around bytes of its own choosing, or bytes sent bare on the socket.
 */
import {
  MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, useAbsSendTime, useSdesMid, useTransportWideCC,
  type RTCDtlsTransport, type RTCRtpTransceiver,
} from 'werift';
import type { Push, SignalClient } from './signal-client.js';

export type VideoCodec = 'H264' | 'VP8';


function codecs(...video: VideoCodec[]) {
  return {
    audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
    video: video.map((codec) => new RTCRtpCodecParameters({
      mimeType: `video/${codec}`, clockRate: 90000,
      rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'transport-cc' }],
      ...(codec === 'H264' ? { parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1' } : {}),
    })),
  };
}

/** The client's ICE on loopback only (one socket per link; werift left the sockets of its other interfaces open after close). */
export const LOOPBACK = { iceUseIpv6: false, bundlePolicy: 'max-bundle' as const, iceInterfaceAddresses: { udp4: '127.0.0.1' }, iceAdditionalHostAddresses: ['127.0.0.1'] };

const headerExtensions = { audio: [useSdesMid(), useTransportWideCC()], video: [useSdesMid(), useAbsSendTime(), useTransportWideCC()] };

/** Resolves when `pc` is connected (bounded). */
export async function connected(pc: RTCPeerConnection, timeoutMs = 10_000): Promise<void> {
  if (pc.connectionState === 'connected') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`peer connection not connected in ${timeoutMs} ms (${pc.connectionState})`)), timeoutMs);
    const { unSubscribe } = pc.connectionStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      clearTimeout(timer);
      unSubscribe();
      resolve();
    });
  });
}

/** A client's uplink offer: opus + three video m-lines (main, small, aux), sendonly. */
export async function uplinkOffer(videoCodec: VideoCodec = 'H264'): Promise<{ pc: RTCPeerConnection; audio: RTCRtpTransceiver; video: RTCRtpTransceiver; offer: string }> {
  const pc = new RTCPeerConnection({ ...LOOPBACK, codecs: codecs(videoCodec), headerExtensions });
  const audio = pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
  const video = pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  for (let i = 0; i < 2; i++) pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, audio, video, offer: pc.localDescription!.sdp };
}

/** Payloads of honest senders: a codec byte, then a 4-byte mark of who sent it (the fuzz's packets never carry one). */
export function markedPayload(kind: 'audio' | 'video', mark: Buffer, seq: number): Buffer {
  const head = kind === 'video' ? 0x65 : 0xf8; // an H264 IDR NAL header; an opus TOC byte
  const tail = Buffer.alloc(2);
  tail.writeUInt16BE(seq & 0xffff);
  return Buffer.concat([Buffer.from([head]), mark, tail]);
}

/** A published uplink over signalling; `send()` starts a packet per 20 ms of audio and video, marked. */
export class Publisher {
  private constructor(readonly pc: RTCPeerConnection, readonly audio: RTCRtpTransceiver, readonly video: RTCRtpTransceiver) {}

  static async publish(client: SignalClient, videoCodec: VideoCodec = 'H264'): Promise<Publisher> {
    const up = await uplinkOffer(videoCodec);
    const reply = await client.request('publish', { sdp: up.offer });
    if (reply.code !== 0) {
      await up.pc.close();
      throw new Error(`publish refused: ${reply.code} ${reply.message}`);
    }
    await up.pc.setRemoteDescription({ type: 'answer', sdp: (reply.data as { sdp: string }).sdp });
    const flag = await client.request('mute-flag', { flag: 0b1001 }); // audio and main video (FLAG)
    if (flag.code !== 0) throw new Error(`mute-flag refused: ${flag.code}`);
    await connected(up.pc);
    return new Publisher(up.pc, up.audio, up.video);
  }

  /** The SSRCs this uplink sends with (the ones an attacker would spoof). */
  get ssrcs(): number[] {
    return [this.audio.sender.ssrc, this.video.sender.ssrc];
  }

  /** Sends marked audio and video every 20 ms until the returned stop; counts what it sent. */
  send(mark: Buffer): { sent: () => number; stop: () => void } {
    let seq = 0;
    const timer = setInterval(() => {
      seq++;
      void this.video.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 1800, marker: true }), markedPayload('video', mark, seq)));
      void this.audio.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 960 }), markedPayload('audio', mark, seq)));
    }, 20);
    return { sent: () => seq * 2, stop: () => clearInterval(timer) };
  }

  close(): Promise<void> {
    return this.pc.close();
  }
}

/** What arrived on one m-line of a downlink. */
export interface MlineCount {
  packets: number;
  /** Packets whose payload does not carry `expected`'s mark (set by the caller). */
  foreign: number;
}

/**
 * A subscriber's downlink over signalling: answers every `downlink-offer` (through `answerer`, which may rewrite
 * the answer), counts the RTP of each m-line and, where a mark is expected, the packets without it.
 */
export class Subscriber {
  readonly pc = new RTCPeerConnection({ ...LOOPBACK, codecs: codecs('H264', 'VP8'), headerExtensions: { audio: [useSdesMid()], video: [useSdesMid(), useAbsSendTime()] } });
  readonly byMid = new Map<string, MlineCount>();
  readonly #expected = new Map<string, Buffer>();
  #answers: Promise<unknown> = Promise.resolve();
  readonly #stopListening: () => void;
  /** Rewrites the answer before it is sent (the fuzz's hostile answers); identity by default. */
  answerer: (answer: string) => string = (answer) => answer;
  /** downlink-answer replies that were not 0, by code. */
  readonly answerCodes: number[] = [];

  constructor(readonly client: SignalClient) {
    this.pc.onTransceiverAdded.subscribe((transceiver) => transceiver.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => {
      const mid = transceiver.mid ?? '';
      const count = this.byMid.get(mid) ?? { packets: 0, foreign: 0 };
      count.packets++;
      const mark = this.#expected.get(mid);
      if (mark && !rtp.payload.subarray(1, 5).equals(mark)) count.foreign++;
      this.byMid.set(mid, count);
    })));
    this.#stopListening = client.onPush((push) => this.#onPush(push));
  }

  #onPush(push: Push): void {
    if (push.push !== 'downlink-offer') return;
    const { seq, sdp } = push.data as { seq: number; sdp: string };
    // Offers are answered in order, one at a time, as the SDK does.
    this.#answers = this.#answers.then(async () => {
      await this.pc.setRemoteDescription({ type: 'offer', sdp });
      await this.pc.setLocalDescription(await this.pc.createAnswer());
      const reply = await this.client.request('downlink-answer', { seq, sdp: this.answerer(this.pc.localDescription!.sdp) });
      if (reply.code !== 0) this.answerCodes.push(reply.code);
      // The fuzz's hostile offers may fail in this client's own werift before any reply: that is the attacker's
      // side breaking, not the server; the server's answers are judged by answerCodes and the bystanders.
    }).catch(() => undefined);
  }

  /** Subscribes to `srcUserId`'s audio and main video; resolves with its mids. `mark`: what its payloads must carry. */
  async subscribe(srcUserId: string, mark?: Buffer): Promise<{ audio: string; video: string; aux: string }> {
    const reply = await this.client.request('subscribe', { srcUserId, audio: true, bigVideo: true, smallVideo: false, auxVideo: false });
    if (reply.code !== 0) throw new Error(`subscribe to ${srcUserId} refused: ${reply.code} ${reply.message}`);
    const mids = reply.data as { audio: string; video: string; aux: string };
    if (mark) for (const mid of [mids.audio, mids.video]) this.#expected.set(mid, mark);
    await this.#answers;
    return mids;
  }

  /** Packets received on `mids` (all m-lines when none are named). */
  packets(mids?: string[]): number {
    return [...this.byMid.entries()].filter(([mid]) => !mids || mids.includes(mid)).reduce((n, [, c]) => n + c.packets, 0);
  }

  /** Packets that arrived on a marked m-line without its mark (another sender's media on it). */
  foreign(): number {
    return [...this.byMid.values()].reduce((n, c) => n + c.foreign, 0);
  }

  async close(): Promise<void> {
    this.#stopListening();
    await this.pc.close();
  }
}

/** The SRTP side of an attacker's connected link: arbitrary bytes protected with its session keys, or sent bare. */
export class RawLink {
  constructor(readonly transport: RTCDtlsTransport) {}

  static of(pc: RTCPeerConnection): RawLink {
    const transport = pc.dtlsTransports[0];
    if (!transport?.srtp) throw new Error('the link has no SRTP session yet');
    return new RawLink(transport);
  }

  /** Bytes as they are, on the link's ICE socket (no SRTP). */
  sendBare(bytes: Buffer): void {
    this.transport.iceTransport.connection.send(bytes).catch(() => undefined);
  }

  /**
   * An RTP packet of any bytes, SRTP-protected so the receiver authenticates and parses it. werift's cipher
   * serializes a header object and encrypts what follows it; a stand-in header object hands it these bytes' own
   * first `headLength` bytes instead, split where the receiver's parser will split them (so AES-GCM's
   * authenticated header matches). Bytes whose header does not parse, or too short to carry one, go bare.
   */
  sendRtp(bytes: Buffer): void {
    const headLength = rtpHeaderLength(bytes);
    if (headLength === undefined) {
      this.sendBare(bytes);
      return;
    }
    const context = this.transport.srtp.localContext;
    const ssrc = bytes.readUInt32BE(8);
    const seq = bytes.readUInt16BE(2);
    const state = context.getSrtpSsrcState(ssrc);
    context.updateRolloverCount(seq, state);
    const header = {
      ssrc, sequenceNumber: seq, serializeSize: headLength,
      serialize: (size: number) => {
        const out = Buffer.alloc(size);
        bytes.copy(out, 0, 0, headLength);
        return out;
      },
    } as unknown as RtpHeader;
    const protectedBytes = context.cipher.encryptRtp(header, bytes.subarray(headLength), state.rolloverCounter);
    this.sendBare(protectedBytes);
  }

  /** A compound RTCP packet of any bytes (at least 8: werift's SRTCP reads the sender SSRC), SRTCP-protected. */
  sendRtcp(bytes: Buffer): void {
    if (bytes.length < 8) {
      this.sendBare(bytes);
      return;
    }
    this.sendBare(this.transport.srtcp.encrypt(bytes));
  }
}

/** Where werift's parser ends an RTP header in `bytes` (its payload offset), or undefined when it does not parse. */
export function rtpHeaderLength(bytes: Buffer): number | undefined {
  if (bytes.length < 12) return undefined;
  try {
    // The padding bit makes the parser read the packet's last byte (encrypted on the wire): not the header's length.
    const copy = Buffer.from(bytes);
    copy[0] &= ~0x20;
    const header = RtpHeader.deSerialize(copy);
    return header.payloadOffset >= 12 && header.payloadOffset <= bytes.length ? header.payloadOffset : undefined;
  } catch {
    return undefined;
  }
}
