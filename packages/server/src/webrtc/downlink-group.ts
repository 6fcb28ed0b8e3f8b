import type { RTCRtpSender, RtpPacket } from 'werift';
import { chooseLayer, type Layer, type VideoCap } from './layers.js';
import type { SubscriptionWants } from '@conclave/protocol/media';
import type { PacketSink, PublisherSources } from './forward-source.js';
import { KeyframePrefetch } from './keyframe-prefetch.js';
import { sendForwarded } from './rtp-send.js';

/** Counts what downlinks forward, for metrics. */
export interface ForwardCounter {
  packets: number;
  bytes: number;
}

export type GroupSlot = 'audio' | 'video' | 'aux';

/** The three senders of a group, on the subscriber's downlink. */
export type GroupSenders = Record<GroupSlot, RTCRtpSender>;

const NOTHING: SubscriptionWants = { audio: false, bigVideo: false, smallVideo: false, auxVideo: false };

/**
 * Three m-lines of a subscriber's downlink (audio, main video, auxiliary video) and the source they
 * carry now. A group is assigned to one source at a time; when that subscription ends the group is
 * released and can carry another source later without renegotiation: the first packet of the new
 * source rewrites the sender's RTP state (replaceRTP) and a key frame is asked for. The main-video
 * m-line carries the small video instead of the big one when only the small one is wanted and the
 * publisher sends it. While the link is not up yet, the wanted video is held from a key frame asked
 * for at once (KeyframePrefetch) and sent when it connects.
 */
export class DownlinkGroup {
  /** Its source's payloads are end-to-end encrypted: sent as they came (no RED around the audio). Set by assign. */
  #opaque = false;
  /** The group's mids on the downlink (set when its m-lines are first offered). */
  readonly mids: Record<GroupSlot, string>;
  readonly #senders: GroupSenders;
  readonly #counter: ForwardCounter;
  readonly #connected: () => boolean;
  #sources: PublisherSources | undefined;
  #wants: SubscriptionWants = NOTHING;
  #detach: (() => void)[] = [];
  /** The sink this group gave each source of its publisher (replay hands recent frames to it). */
  #sinks: Record<keyof PublisherSources, PacketSink> = { audio: () => undefined, video: () => undefined, small: () => undefined, aux: () => undefined };
  /** The layer whose packets the main-video sender sent last. */
  #sentLayer: Layer | undefined;
  /** Video held while the link is not up (first frame). */
  readonly #held = { video: new KeyframePrefetch(), aux: new KeyframePrefetch() };
  /** What the downlink allocator lets through of the camera (issue 43). */
  #cap: VideoCap = 'big';
  /**
   * While a switch of layer (or a resume after a pause) waits for the new layer's key frame: its packets held from
   * one, the layer sent so far still flowing meanwhile. A switch starts on a key frame, never mid-stream.
   */
  #gate: KeyframePrefetch | undefined;
  /** Whether the layer sent so far goes on while the gate waits. */
  #keepPrevious = true;

  constructor(senders: GroupSenders, mids: Record<GroupSlot, string>, counter: ForwardCounter, connected: () => boolean) {
    this.#senders = senders;
    this.mids = mids;
    this.#counter = counter;
    this.#connected = connected;
    // PLIs from the subscriber go to whatever source the m-line carries now.
    senders.video.onPictureLossIndication.subscribe(() => this.#sources?.[this.#sentLayer ?? this.#layer].requestKeyframe());
    senders.aux.onPictureLossIndication.subscribe(() => this.#sources?.aux.requestKeyframe());
  }

  /** True while no source is assigned. */
  get free(): boolean {
    return this.#sources === undefined;
  }

  /** Whether its source's payloads go out as they came (assign's `opaque`). */
  get opaque(): boolean {
    return this.#opaque;
  }

  /** Starts carrying `sources`; `opaque`: their payloads are end-to-end encrypted (no RED around the audio). */
  assign(sources: PublisherSources, wants: SubscriptionWants, opaque = false): void {
    this.release();
    this.#opaque = opaque;
    this.#sources = sources;
    this.#wants = wants;
    this.#sentLayer = undefined;
    this.#cap = 'big';
    this.#gate = undefined;
    this.#held.video.clear();
    this.#held.aux.clear();
    this.#sinks = {
      audio: this.#sink('audio', 'audio'),
      video: this.#sink('video', 'video'),
      small: this.#sink('video', 'small'),
      aux: this.#sink('aux', 'aux'),
    };
    this.#detach = (['audio', 'video', 'small', 'aux'] as const).map((from) => sources[from].addSink(this.#sinks[from]));
    this.requestKeyframes();
  }

  /** Stops carrying its source; the m-lines stay for reuse. */
  release(): void {
    for (const detach of this.#detach) detach();
    this.#detach = [];
    this.#sources = undefined;
    this.#wants = NOTHING;
  }

  /** Changes which streams flow; newly wanted video starts at a key frame. */
  update(wants: SubscriptionWants): void {
    const sources = this.#sources;
    if (!sources) return;
    const videoAdded = (wants.bigVideo || wants.smallVideo) && !(this.#wants.bigVideo || this.#wants.smallVideo);
    const auxAdded = wants.auxVideo && !this.#wants.auxVideo;
    const layerBefore = this.#layer;
    this.#wants = wants;
    if (this.#layer !== layerBefore) this.#held.video.clear();
    // Before the link is up too: the key frame is then held until it connects. A layer switch asks for
    // a fresh key frame: replayed frames would be older than those of the other layer already sent.
    if (this.#layer !== layerBefore) this.#switchTo(this.#layer);
    else if (videoAdded) this.#startVideo(this.#layer);
    if (auxAdded) this.#startVideo('aux');
  }

  /** The camera layer forwarded now (or being switched to). */
  get layer(): Layer {
    return this.#layer;
  }

  get #layer(): Layer {
    return chooseLayer(this.#wants, this.#sources?.small.active ?? false, this.#cap);
  }

  /** What the app asked for and the source it is of (the downlink allocator's inputs). */
  get wants(): SubscriptionWants {
    return this.#wants;
  }

  get sources(): PublisherSources | undefined {
    return this.#sources;
  }

  get cap(): VideoCap {
    return this.#cap;
  }

  /**
   * Lowers (or lifts) what flows of the camera: 'small' moves a big subscription to the small layer when the
   * publisher sends one, 'paused' stops its video (audio and the auxiliary video go on). A new layer, or the
   * video again after a pause, starts on its key frame.
   */
  setCap(cap: VideoCap): void {
    const before = this.#cap;
    if (cap === before) return;
    const layerBefore = this.#layer;
    this.#cap = cap;
    const sources = this.#sources;
    if (!sources || !(this.#wants.bigVideo || this.#wants.smallVideo)) return;
    if (cap === 'paused') {
      this.#gate = undefined;
      return;
    }
    if (before === 'paused') {
      this.#gate = new KeyframePrefetch();
      this.#startVideo(this.#layer);
    } else if (this.#layer !== layerBefore) this.#switchTo(this.#layer, cap === 'big');
  }

  /**
   * Starts a switch to `layer`: its key frame asked for, the layer sent so far going on until it came — unless the
   * switch lowers what a congested link carries (`keepPrevious` false): the bigger layer stops at once then.
   */
  #switchTo(layer: Layer, keepPrevious = true): void {
    this.#gate = this.#sentLayer === undefined || this.#sentLayer === layer ? undefined : new KeyframePrefetch();
    this.#keepPrevious = keepPrevious;
    this.#sources?.[layer].requestKeyframe();
  }

  /**
   * Asks the source for key frames of what is wanted (the group was just assigned): before the link is up
   * too, so that they arrive during ICE and DTLS and are held until it connects.
   */
  requestKeyframes(): void {
    if (this.#wants.bigVideo || this.#wants.smallVideo) this.#startVideo(this.#layer);
    if (this.#wants.auxVideo) this.#startVideo('aux');
  }

  /** Starts a newly wanted video at a key frame: the source's recent one if it has one, else one asked for. */
  #startVideo(from: Layer | 'aux'): void {
    const source = this.#sources?.[from];
    if (source && !source.replay(this.#sinks[from])) source.requestKeyframe();
  }

  /** The link just connected: sends the video held since a key frame, or asks for a key frame where none is held. */
  linkUp(): void {
    const sources = this.#sources;
    if (!sources) return;
    for (const slot of ['video', 'aux'] as const) {
      const held = this.#held[slot].take();
      if (!this.#wanted(slot)) continue;
      if (!held) {
        sources[slot === 'video' ? this.#layer : 'aux'].requestKeyframe();
        continue;
      }
      if (slot === 'video') this.#sentLayer = this.#layer;
      held.forEach((rtp, i) => this.#send(slot, rtp, i === 0));
    }
  }

  #wanted(slot: GroupSlot): boolean {
    if (slot === 'audio') return this.#wants.audio;
    if (slot === 'video') return (this.#wants.bigVideo || this.#wants.smallVideo) && this.#cap !== 'paused';
    return this.#wants.auxVideo;
  }

  /** The sink feeding the m-line of `slot` from the publisher's `from` stream. */
  #sink(slot: GroupSlot, from: keyof PublisherSources): PacketSink {
    return (rtp: RtpPacket, restarted: boolean) => {
      if (!this.#wanted(slot)) return;
      // The camera layer is chosen once per packet (the main-video m-line only).
      const layer = slot === 'video' ? this.#layer : undefined;
      const gate = layer !== undefined && this.#connected() ? this.#gate : undefined;
      // Until the new layer's key frame came, the layer sent so far goes on (while its publisher sends it).
      const previous = gate !== undefined && this.#keepPrevious && from === this.#sentLayer && this.#sources?.[from].active === true;
      if (layer !== undefined && layer !== from && !previous) return;
      if (!this.#connected()) {
        if (slot !== 'audio') this.#held[slot].hold(rtp, this.#sources?.[from].codecMimeType, restarted);
        return;
      }
      if (gate !== undefined && from === layer) {
        gate.hold(rtp, this.#sources?.[from].codecMimeType, restarted);
        const held = gate.peek(Number.MAX_SAFE_INTEGER);
        if (!held) return;
        this.#gate = undefined;
        this.#sentLayer = layer;
        held.forEach((packet, i) => this.#send('video', packet, i === 0));
        return;
      }
      if (previous) {
        this.#send(slot, rtp, restarted);
        return;
      }
      // Another layer (or a new track of this one) continues the sequence and timestamps of the last.
      if (layer !== undefined && this.#sentLayer !== layer) {
        restarted = true;
        this.#sentLayer = layer;
      }
      this.#send(slot, rtp, restarted);
    };
  }

  #send(slot: GroupSlot, rtp: RtpPacket, restarted: boolean): void {
    const sender = this.#senders[slot];
    if (restarted) sender.replaceRTP(rtp.header);
    this.#counter.packets++;
    this.#counter.bytes += rtp.payload.length;
    // Shared by every subscriber of the source (extensions already removed): not changed by the send.
    sendForwarded(sender, rtp, slot === 'audio' && this.#opaque);
  }
}
