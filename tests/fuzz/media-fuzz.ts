/**
 * The media fuzz (issue 38 "Beyond the list"): a connected peer that, once ICE, DTLS and SRTP are up, sends hostile
 * SRTP and SRTCP on its uplink and its downlink (rtp-attacks.ts, rtcp-attacks.ts, protected with the links' real
 * keys), and hostile SDP as publish and data-link offers and downlink answers (sdp-attacks.ts). Meanwhile:
 * - a bystander pair in another room (a publisher and its subscriber) goes on: its subscriber keeps receiving
 *   during every round, and only its publisher's media;
 * - in the attacker's own room an honest publisher's subscriber gets only that publisher's media (the attacker
 *   sends with its SSRCs too), and a viewer of the attacker gets what the engine forwards of the attack;
 * - every reply is coded, and after each round the engine holds exactly its links from before (nothing leaked).
 * Each round is a new attacker (join, publish, subscribe, attack, leave), so the churn of its links is fuzzed too.
 */
import { LIMITS, SERVER_CODE } from '@conclave/protocol';
import { RTCPeerConnection } from 'werift';
import type { Rng } from './prng.js';
import { connected, LOOPBACK, Publisher, RawLink, Subscriber, uplinkOffer, type VideoCodec } from './media-peers.js';
import { RTCP_ATTACKS, rtcpPacket, type RtcpAttack } from './rtcp-attacks.js';
import { RTP_ATTACKS, rtpBytes, StreamState, type LinkTarget, type RtpAttack } from './rtp-attacks.js';
import { SDP_ATTACKS, type SdpAttack } from './sdp-attacks.js';
import { isCodedReply, joinedClient, type FuzzApp, type SignalClient } from './signal-client.js';

/** What the engine holds (RunningServer.stats()): links must come back to these after each attacker. */
export interface EngineHoldings {
  uplinks: number;
  downlinks: number;
  /** undefined for an engine that does not count them (Janus). */
  peerConnections?: number;
}

export interface MediaFuzzFigures {
  rounds: number;
  rtp: Partial<Record<RtpAttack, number>>;
  rtcpUplink: Partial<Record<RtcpAttack, number>>;
  rtcpDownlink: Partial<Record<RtcpAttack, number>>;
  /** The inputs that once blocked or leaked (REGRESSIONS), sent at the start of every round. */
  regressions: number;
  sdp: { publish: Partial<Record<SdpAttack, number>>; dataLink: Partial<Record<SdpAttack, number>>; downlinkAnswer: Partial<Record<SdpAttack, number>> };
  /** Reply codes of the SDP commands, and how often. */
  sdpCodes: Record<string, number>;
  /** The bystander subscriber's packets during each attack round (none would mean the node stopped serving it). */
  bystanderPerRound: number[];
  bystanderSent: number;
  bystanderReceived: number;
  /** Packets that reached an honest sender's m-line without its mark (the attack's media where it must not go). */
  foreign: number;
  /** What the attacker's viewer received of the attack (what the engine forwarded of it). */
  forwardedToViewer: number;
  violations: string[];
}

export function emptyMediaFigures(): MediaFuzzFigures {
  return {
    rounds: 0, rtp: {}, rtcpUplink: {}, rtcpDownlink: {}, regressions: 0, sdp: { publish: {}, dataLink: {}, downlinkAnswer: {} }, sdpCodes: {},
    bystanderPerRound: [], bystanderSent: 0, bystanderReceived: 0, foreign: 0, forwardedToViewer: 0, violations: [],
  };
}

/** Inputs tried, in all categories. */
export function mediaInputs(f: MediaFuzzFigures): number {
  const sum = (r: Partial<Record<string, number>>) => Object.values(r).reduce<number>((n, v) => n + (v ?? 0), 0);
  return f.regressions + sum(f.rtp) + sum(f.rtcpUplink) + sum(f.rtcpDownlink) + sum(f.sdp.publish) + sum(f.sdp.dataLink) + sum(f.sdp.downlinkAnswer);
}

const BYSTANDER_MARK = Buffer.from('BYST');
const HONEST_MARK = Buffer.from('HNST');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const bump = <K extends string>(record: Partial<Record<K, number>>, key: K) => { record[key] = (record[key] ?? 0) + 1; };

/** The SSRCs a description's media is sent with (a=ssrc lines). */
function ssrcsOf(sdp: string | undefined): number[] {
  return [...new Set([...(sdp ?? '').matchAll(/^a=ssrc:(\d+) /gm)].map((m) => Number(m[1])))];
}

/** The negotiated id of a header extension, from a transceiver's extensions. */
function extensionId(extensions: { id: number; uri: string }[], fragment: string): number | undefined {
  return extensions.find((e) => e.uri.includes(fragment))?.id;
}

/**
 * Inputs the fuzz found that blocked the node or cost it far more than their bytes (webrtc/werift-input-guards.ts):
 * kept as regression cases, each sent at the start of every round.
 */
function regressions(t: LinkTarget): { link: 'up-bare' | 'up-rtp' | 'up-rtcp' | 'down-rtcp'; bytes: Buffer }[] {
  const runaway = Buffer.alloc(40); // a 65,535-word header extension in 40 bytes: ~10 min of werift's parser, unauthenticated
  runaway[0] = 0x90;
  runaway[1] = t.payloadTypes.video;
  runaway.writeUInt16BE(0xbede, 12);
  runaway.writeUInt16BE(0xffff, 14);
  const elements = Buffer.alloc(32_000); // 16,000 one-byte extension elements inside the packet: ~1 s
  for (let i = 0; i < elements.length; i += 2) elements[i] = 0x10;
  const crowded = rtpBytes({ payloadType: t.payloadTypes.video, seq: 1, timestamp: 1, ssrc: t.ownSsrcs.video, extension: { profile: 0xbede, body: elements }, payload: Buffer.from([0x65]) });
  const body = Buffer.alloc(16 + 16); // transport-cc claiming 65,535 received packets in 8 chunks: ~24 ms
  body.writeUInt32BE(t.ownSsrcs.video, 0);
  body.writeUInt32BE(t.remoteSsrcs[0] ?? 1, 4);
  body.writeUInt16BE(0xffff, 10);
  for (let i = 0; i < 8; i++) body.writeUInt16BE(0x3fff, 16 + i * 2);
  const transportCc = rtcpPacket(205, 15, body);
  // Sequence numbers alternating across the space: werift marked every number of each gap lost (~9 ms a packet).
  const jumps = Array.from({ length: 20 }, (_, i) => rtpBytes({ payloadType: t.payloadTypes.video, seq: i % 2 === 0 ? 65534 : 1, timestamp: i, ssrc: t.ownSsrcs.video, payload: Buffer.from([0x41, 0xff]) }));
  return [
    { link: 'up-bare', bytes: runaway }, { link: 'up-rtp', bytes: runaway }, { link: 'up-rtp', bytes: crowded },
    { link: 'up-rtcp', bytes: transportCc }, { link: 'down-rtcp', bytes: transportCc }, ...jumps.map((bytes) => ({ link: 'up-rtp' as const, bytes })),
  ];
}

export interface MediaFuzzOptions {
  baseUrl: string;
  app: FuzzApp;
  stats: () => EngineHoldings;
}

/** The standing parts of a media fuzz run (bystander pair, honest publisher and its viewer) and its rounds. */
export class MediaFuzz {
  readonly figures = emptyMediaFigures();
  readonly #options: MediaFuzzOptions;
  readonly #closers: (() => Promise<void> | void)[] = [];
  #bystander!: { publisher: Publisher; subscriber: Subscriber; sending: { sent: () => number; stop: () => void } };
  #honest!: Publisher;
  #viewer!: Subscriber;
  #baseline!: EngineHoldings;
  #attackers = 0;

  private constructor(options: MediaFuzzOptions) {
    this.#options = options;
  }

  static async setUp(options: MediaFuzzOptions): Promise<MediaFuzz> {
    const fuzz = new MediaFuzz(options);
    await fuzz.#setUp();
    return fuzz;
  }

  async #client(userId: string, roomId: string): Promise<SignalClient> {
    const client = (await joinedClient(this.#options.baseUrl, this.#options.app, userId, roomId)).keepAlive();
    this.#closers.push(() => client.close());
    return client;
  }

  async #setUp(): Promise<void> {
    const publisher = await Publisher.publish(await this.#client('bystander-publisher', '8801'));
    const subscriber = new Subscriber(await this.#client('bystander-subscriber', '8801'));
    this.#closers.push(() => publisher.close(), () => subscriber.close());
    const sending = publisher.send(BYSTANDER_MARK);
    this.#closers.push(() => sending.stop());
    await subscriber.subscribe('bystander-publisher', BYSTANDER_MARK);
    this.#bystander = { publisher, subscriber, sending };
    this.#honest = await Publisher.publish(await this.#client('honest-publisher', '8802'));
    const honestSending = this.#honest.send(HONEST_MARK);
    this.#viewer = new Subscriber(await this.#client('viewer', '8802'));
    this.#closers.push(() => honestSending.stop(), () => this.#honest.close(), () => this.#viewer.close());
    await this.#viewer.subscribe('honest-publisher', HONEST_MARK);
    await waitFor(() => subscriber.packets() > 10 && this.#viewer.packets() > 10, 10_000, 'media to the bystander and the viewer');
    this.#baseline = this.#options.stats();
  }

  #violation(what: string): void {
    this.figures.violations.push(what);
  }

  /** One attacker: joins, publishes, subscribes to the honest publisher, sends `packets` hostile packets, leaves. */
  async attackRound(rng: Rng, packets: number, codec: VideoCodec): Promise<void> {
    const userId = `attacker-${this.#attackers++}`;
    const client = await joinedClient(this.#options.baseUrl, this.#options.app, userId, '8802');
    const uplink = await Publisher.publish(client, codec);
    const downlink = new Subscriber(client);
    try {
      await downlink.subscribe('honest-publisher');
      await connected(downlink.pc);
      await this.#viewer.subscribe(userId);
      const viewerBefore = this.#viewer.packets();
      const up = RawLink.of(uplink.pc);
      const down = RawLink.of(downlink.pc);
      const spoofSsrcs = [...this.#honest.ssrcs, ...this.#bystander.publisher.ssrcs];
      const extensions = uplink.video.headerExtensions;
      const upTarget: LinkTarget = {
        ownSsrcs: { audio: uplink.audio.sender.ssrc, video: uplink.video.sender.ssrc },
        payloadTypes: { audio: uplink.audio.sender.codec?.payloadType ?? 111, video: uplink.video.sender.codec?.payloadType ?? 96 },
        extensionIds: { mid: extensionId(extensions, 'sdes:mid'), absSendTime: extensionId(extensions, 'abs-send-time'), transportCc: extensionId(extensions, 'transport-wide-cc') },
        spoofSsrcs, remoteSsrcs: [], codec,
      };
      const downTarget: LinkTarget = { ...upTarget, ownSsrcs: { audio: rng.int(2 ** 32), video: rng.int(2 ** 32) }, remoteSsrcs: ssrcsOf(downlink.pc.remoteDescription?.sdp) };
      const state = new StreamState();
      const rtpNames = Object.keys(RTP_ATTACKS) as RtpAttack[];
      const rtcpNames = Object.keys(RTCP_ATTACKS) as RtcpAttack[];
      const bystanderBefore = this.#bystander.subscriber.packets();
      for (const { link, bytes } of regressions({ ...upTarget, remoteSsrcs: downTarget.remoteSsrcs })) {
        if (link === 'up-bare') up.sendBare(bytes);
        else if (link === 'up-rtp') up.sendRtp(bytes);
        else (link === 'up-rtcp' ? up : down).sendRtcp(bytes);
        this.figures.regressions++;
      }
      for (let i = 0; i < packets; i++) {
        const roll = rng.next();
        if (roll < 0.55) {
          const name = rng.pick(rtpNames);
          const { bytes, bare } = RTP_ATTACKS[name](rng, upTarget, state) as { bytes: Buffer; bare?: boolean };
          if (bare) up.sendBare(bytes);
          else up.sendRtp(bytes);
          bump(this.figures.rtp, name);
        } else if (roll < 0.7) {
          const name = rng.pick(rtcpNames);
          up.sendRtcp(RTCP_ATTACKS[name](rng, upTarget));
          bump(this.figures.rtcpUplink, name);
        } else {
          const name = rng.pick(rtcpNames);
          down.sendRtcp(RTCP_ATTACKS[name](rng, downTarget));
          bump(this.figures.rtcpDownlink, name);
        }
        // Bursts, then a turn of the event loop: the server (in this process) reads and handles them.
        if (i % 16 === 15) await sleep(1);
      }
      // The node still serves the bystander after the attack (its packets keep coming).
      const atEnd = this.#bystander.subscriber.packets();
      await waitFor(() => this.#bystander.subscriber.packets() > atEnd + 5, 10_000, 'the bystander receiving after the attack')
        .catch((error: unknown) => this.#violation(`round ${this.figures.rounds}: ${String(error)}`));
      this.figures.bystanderPerRound.push(this.#bystander.subscriber.packets() - bystanderBefore);
      this.figures.forwardedToViewer += this.#viewer.packets() - viewerBefore;
    } finally {
      await this.#leave(client, [uplink, downlink]);
    }
    this.figures.rounds++;
  }

  /** An attacker sending hostile SDP: `count` publish offers, data-link offers and downlink answers in all. */
  async sdpRound(rng: Rng, count: number): Promise<void> {
    const userId = `sdp-attacker-${this.#attackers++}`;
    const client = await joinedClient(this.#options.baseUrl, this.#options.app, userId, '8802');
    const names = Object.keys(SDP_ATTACKS) as SdpAttack[];
    const offer = await uplinkOffer();
    const dataPc = new RTCPeerConnection(LOOPBACK);
    dataPc.createDataChannel('custom-message');
    await dataPc.setLocalDescription(await dataPc.createOffer());
    const dataOffer = dataPc.localDescription!.sdp;
    const links: { close(): Promise<void> }[] = [offer.pc, dataPc];
    try {
      for (let i = 0; i < count; i++) {
        const name = names[i % names.length];
        const kind = rng.pick(['publish', 'data-link', 'downlink-answer'] as const);
        if (kind === 'downlink-answer') {
          await this.#hostileAnswer(client, (answer) => SDP_ATTACKS[name](rng, answer), links);
          bump(this.figures.sdp.downlinkAnswer, name);
          continue;
        }
        const sdp = SDP_ATTACKS[name](rng, kind === 'publish' ? offer.offer : dataOffer);
        const reply = await client.request(kind, { sdp });
        this.figures.sdpCodes[reply.code] = (this.figures.sdpCodes[reply.code] ?? 0) + 1;
        if (!isCodedReply(reply)) this.#violation(`${kind} ${name}: reply ${reply.code} ${reply.message}`);
        const tooLong = Buffer.byteLength(JSON.stringify({ sdp })) > LIMITS.MAX_MESSAGE_BYTES;
        if (tooLong && reply.code !== SERVER_CODE.MESSAGE_TOO_LARGE) this.#violation(`${kind} ${name}: an oversized offer answered ${reply.code}`);
        bump(kind === 'publish' ? this.figures.sdp.publish : this.figures.sdp.dataLink, name);
      }
    } finally {
      await this.#leave(client, links);
    }
  }

  /** A fresh downlink (reset, subscribe) whose answer is rewritten by `mutate`. */
  async #hostileAnswer(client: SignalClient, mutate: (answer: string) => string, links: { close(): Promise<void> }[]): Promise<void> {
    const reset = await client.request('downlink-reset', {});
    if (!isCodedReply(reset)) this.#violation(`downlink-reset: ${reset.code}`);
    const subscriber = new Subscriber(client);
    subscriber.answerer = mutate;
    links.push(subscriber);
    await subscriber.subscribe('honest-publisher').catch((error: unknown) => {
      // A refusal is fine when coded (a downlink that failed may refuse the next subscription until reset).
      if (/refused: -1099/.test(String(error))) this.#violation(`subscribe after a hostile answer: ${String(error)}`);
    });
    for (const code of subscriber.answerCodes.splice(0)) {
      this.figures.sdpCodes[code] = (this.figures.sdpCodes[code] ?? 0) + 1;
      if (code === SERVER_CODE.INTERNAL) this.#violation('downlink-answer: INTERNAL');
    }
    await subscriber.close();
  }

  /** The attacker leaves; its links must be gone from the engine (back to the baseline) within a bound. */
  async #leave(client: SignalClient, links: { close(): Promise<void> }[]): Promise<void> {
    // A leave or close that fails (the fuzz's own input may have broken the link) is not the finding: what is, is
    // whether the engine is back at its baseline, which the caller checks next.
    if (client.open) await client.request('leave', {}).catch(() => undefined);
    client.close();
    await Promise.all(links.map((l) => l.close().catch(() => undefined)));
    const same = (s: EngineHoldings) => s.uplinks === this.#baseline.uplinks && s.downlinks === this.#baseline.downlinks && s.peerConnections === this.#baseline.peerConnections;
    await waitFor(() => same(this.#options.stats()), 15_000, 'the engine back to its links from before the attacker')
      .catch(() => this.#violation(`links left behind: ${JSON.stringify(this.#options.stats())} (before: ${JSON.stringify(this.#baseline)})`));
  }

  /** Final figures: what the bystander and the honest publisher's viewer got. */
  async finish(): Promise<MediaFuzzFigures> {
    this.figures.bystanderSent = this.#bystander.sending.sent();
    this.figures.bystanderReceived = this.#bystander.subscriber.packets();
    this.figures.foreign = this.#bystander.subscriber.foreign() + this.#viewer.foreign();
    for (const close of this.#closers.reverse()) await close();
    return this.figures;
  }
}
