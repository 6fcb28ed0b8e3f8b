import { encodeFlag } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, operationFailed } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { SignalChannelError } from '../signal/signal-channel.js';
import { switchEncoder } from '../transport/hw-encoder-loader.js';
import { HW_ENCODE_MIN_PIXELS } from '../transport/uplink-codec.js';
import { canEncodeVideo, Uplink, UPLINK_SLOTS, type SlotEncoding, type UplinkSlot } from '../transport/uplink.js';
import type { RoomContext } from './room-context.js';

/** What the local side publishes on one uplink slot. */
export interface LocalSlot {
  track: MediaStreamTrack;
  /** Bitrate (kbit/s), frame rate, scale and degradation preference of the slot's sender. */
  encoding?: SlotEncoding;
  muted: boolean;
  /** Audio only: send opus in stereo (the stereo profiles). */
  stereo?: boolean;
}

/** publish-state-changed states (docs/behaviour.md §4). */
export type PublishState = 'starting' | 'started' | 'stopped';

/** docs/behaviour.md §7: publish and mute-flag requests are retried 3 times. */
export const FLAG_RETRIES = 3;

/** Runs `fn`, trying again up to `retries` times when the server does not answer in time (a refusal or a closed channel is final). */
export async function withRetries<T>(retries: number, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const timedOut = error instanceof SignalChannelError && error.reason === 'timeout';
      if (attempt >= retries || !timedOut) throw error;
      log.warn(`publish request failed, retrying (${attempt + 1}/${retries})`, error);
    }
  }
}

/** Longest wait for a new uplink to connect before its tracks are put on anyway (issue 26: see Publisher._apply). */
export const UPLINK_CONNECT_WAIT_MS = 5_000;

/** Resolves once `pc` is connected, failed or closed, or after `timeoutMs`. */
export function untilConnected(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  const settled = () => ['connected', 'failed', 'closed'].includes(pc.connectionState);
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener('connectionstatechange', onChange);
      resolve();
    };
    const onChange = () => { if (settled()) done(); };
    const timer = setTimeout(done, timeoutMs);
    pc.addEventListener('connectionstatechange', onChange);
  });
}

/** docs/behaviour.md §9: the publish-state consistency check runs 10 s after a flag change. */
export const PUBLISH_STATE_CHECK_MS = 10_000;

const MEDIA_TYPE: Partial<Record<UplinkSlot, 'audio' | 'video' | 'screen'>> = { audio: 'audio', video: 'video', aux: 'screen' };

/**
 * The local side of the room: what is captured per uplink slot, the uplink peer connection, and the
 * publish flags the server relays to the others. The small video is its own slot (index 2), fed by the
 * camera track scaled down; it is muted with the big video.
 */
export class Publisher {
  private readonly _ctx: RoomContext;
  private readonly _local: Partial<Record<UplinkSlot, LocalSlot>> = {};
  private readonly _state: Partial<Record<UplinkSlot, PublishState>> = {};
  private _uplink: Uplink | undefined;
  private _flagQueue: Promise<void> = Promise.resolve();
  /** The flag the server last acknowledged. */
  private _ackedFlag: number | undefined;
  private _checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** False for an audience in the live scene. */
  canPublish: () => boolean;
  /** enterRoom({preferHW}) or the schedule's config.preferHW: large videos go to the hardware encoder. */
  preferHW: () => boolean = () => false;

  constructor(ctx: RoomContext, canPublish: () => boolean) {
    this._ctx = ctx;
    this.canPublish = canPublish;
  }

  get peerConnection(): RTCPeerConnection | undefined {
    return this._uplink?.peerConnection;
  }

  /** The uplink, while one exists (for stats and encoded transforms). */
  get uplink(): Uplink | undefined {
    return this._uplink;
  }

  /** What a slot holds. */
  local(slot: UplinkSlot): Readonly<LocalSlot> | undefined {
    return this._local[slot];
  }

  /** Puts (or clears) a local track on a slot; when joined, sends it and the new flags. */
  async setLocalTrack(slot: UplinkSlot, local: LocalSlot | undefined): Promise<void> {
    if (local) this._local[slot] = local;
    else delete this._local[slot];
    if (!this._ctx.joined()) {
      if (!local) this._setState(slot, 'stopped', 'api-call');
      return;
    }
    await this._apply(slot);
  }

  /** After joining, a role switch or a reconnection: publishes whatever is captured. */
  async publishPending(): Promise<void> {
    if (!this._ctx.joined() || !this.canPublish()) return;
    await Promise.all((Object.keys(this._local) as UplinkSlot[]).map((slot) => this._apply(slot)));
  }

  private async _apply(slot: UplinkSlot): Promise<void> {
    const signal = this._ctx.signal();
    if (!signal || !this.canPublish()) return;
    const local = this._local[slot];
    if (!local) this._setState(slot, 'stopped', 'api-call');
    if (!local && Object.keys(this._local).length === 0) {
      // Nothing left to send: close the uplink (docs/behaviour.md §4); the server clears our flags.
      if (this._uplink) {
        this.closeUplink();
        this._ackedFlag = 0;
        await signal.request('unpublish', {});
      }
      return;
    }
    if (local && slot !== 'audio' && !canEncodeVideo()) {
      const error = envNotSupported(EXTRA_CODE.H264_ENCODE, 'not supported H264 encode');
      this._setState(slot, 'stopped', 'error', error);
      throw error;
    }
    if (local) this._setState(slot, 'starting');
    if (local && !this._uplink) {
      const encoded = this._ctx.encoded?.();
      this._uplink = new Uplink(this._ctx.iceServers(), this._ctx.iceTransportPolicy(), encoded && ((slot, sender) => encoded.sender(slot, sender)));
      this._ctx.watchLink(this._uplink.peerConnection, 'uplink');
    }
    const uplink = this._uplink;
    if (!uplink) return;
    try {
      await withRetries(FLAG_RETRIES, () => uplink.connect(async (offer) => (await signal.request('publish', { sdp: offer, ...(this._ctx.e2ee?.() ? { encrypted: true } : {}) })).sdp, this._mediaSettings()));
      // The track goes on once the link is up (the flag goes out meanwhile): a camera attached earlier has its
      // first frames judged against Chrome's pre-connection share of the start bitrate (start ÷ streams), too
      // low for 720p, so its encoder starts at 640×360 and climbs back by its quality scaler, ~5 s a step
      // (issue 26). The original SDK also puts tracks on an uplink already connected.
      await Promise.all([this._sendFlag(), (async () => {
        await untilConnected(uplink.peerConnection, UPLINK_CONNECT_WAIT_MS);
        await uplink.setTrack(slot, this._sending(slot), local?.encoding);
      })()]);
      if (local && (slot === 'video' || slot === 'aux')) await this._preferHW(uplink, slot, local.track);
    } catch (error) {
      const timedOut = error instanceof SignalChannelError && error.reason === 'timeout';
      if (local && this._local[slot] === local) this._setState(slot, 'stopped', timedOut ? 'timeout' : 'error', RtcError.convertFrom(error));
      throw error;
    }
    if (local && this._local[slot] === local) this._setState(slot, 'started');
  }

  /**
   * With preferHW, a published video of 1280×720 or more (docs/behaviour.md §9) is sent as H264 42001f, for which the
   * browser picks a hardware encoder where one exists (the original's useHWEncoder). A refusal is logged:
   * publishing goes on with the default encoder.
   */
  private async _preferHW(uplink: Uplink, slot: 'video' | 'aux', track: MediaStreamTrack): Promise<void> {
    const { width = 0, height = 0 } = track.getSettings();
    if (!this.preferHW() || width * height < HW_ENCODE_MIN_PIXELS) return;
    await switchEncoder(uplink, true, slot);
  }

  /** The track a slot sends now: none when muted (the small video follows the big video's mute). */
  private _sending(slot: UplinkSlot): MediaStreamTrack | null {
    const local = this._local[slot];
    if (!local || local.muted) return null;
    if (slot === 'small' && this._local.video?.muted) return null;
    return local.track;
  }

  /** Settings fixed at negotiation: start bitrate from the camera profile, opus channels and bitrate. */
  private _mediaSettings() {
    const audio = this._local.audio;
    return {
      startBitrateKbps: this._local.video?.encoding?.maxBitrateKbps ?? this._local.aux?.encoding?.maxBitrateKbps,
      stereo: audio?.stereo === true,
      audioBitrateKbps: audio?.encoding?.maxBitrateKbps,
    };
  }

  /** Replaces the track of a published slot without renegotiation (device switch). */
  async replaceTrack(slot: UplinkSlot, track: MediaStreamTrack, encoding?: SlotEncoding): Promise<void> {
    const local = this._local[slot];
    if (!local) return;
    local.track = track;
    if (encoding) local.encoding = encoding;
    if (this._ctx.joined() && this.canPublish()) await this._uplink?.setTrack(slot, this._sending(slot), local.encoding);
  }

  /** Changes the encoding of a published slot (profile, qosPreference) without renegotiation. */
  async setEncoding(slot: UplinkSlot, encoding: SlotEncoding): Promise<void> {
    const local = this._local[slot];
    if (!local) return;
    local.encoding = { ...local.encoding, ...encoding };
    if (!this._ctx.joined() || !this.canPublish() || !this._sending(slot)) return;
    try {
      await this._uplink?.setEncoding(slot, local.encoding);
    } catch (error) {
      // The app asked for this change (a profile, bitrate or qosPreference update): report it.
      log.warn(`changing the ${slot} encoding failed:`, error);
      throw operationFailed(undefined, `the ${slot} encoding parameters were refused: ${(error as Error)?.message ?? String(error)}`, undefined, error);
    }
  }

  /** Changes the mute flag of a slot; a muted slot sends nothing (a muted big video stops the small one too). */
  async setMuted(slot: UplinkSlot, muted: boolean): Promise<void> {
    const local = this._local[slot];
    if (!local || local.muted === muted) return;
    local.muted = muted;
    if (!this._ctx.joined() || !this.canPublish()) return;
    await this._uplink?.setTrack(slot, this._sending(slot), local.encoding);
    if (slot === 'video' && this._local.small) await this._uplink?.setTrack('small', this._sending('small'), this._local.small.encoding);
    await this._sendFlag();
  }

  /** Closes the uplink (role switch to audience, reconnection); the captured tracks stay. */
  closeUplink(): void {
    clearTimeout(this._checkTimer);
    this._uplink?.close();
    this._uplink = undefined;
  }

  private _setState(slot: UplinkSlot, state: PublishState, reason?: 'timeout' | 'error' | 'api-call', error?: RtcError): void {
    const mediaType = MEDIA_TYPE[slot];
    const prevState = this._state[slot] ?? 'stopped';
    if (!mediaType || prevState === state) return;
    this._state[slot] = state;
    this._ctx.events.emit('publish-state-changed', { mediaType, state, prevState, ...(state === 'stopped' && reason ? { reason } : {}), ...(error ? { error } : {}) });
  }

  /** The publish flag bits (docs/behaviour.md §3) of what is published now. */
  flag(): number {
    return encodeFlag({
      hasAudio: !!this._local.audio,
      audioMuted: !!this._local.audio?.muted,
      hasVideo: !!this._local.video,
      videoMuted: !!this._local.video?.muted,
      hasSmall: !!this._local.small && !!this._local.video,
      hasAuxiliary: !!this._local.aux,
      auxMuted: !!this._local.aux?.muted,
    });
  }

  /** Sends our current publish flags (serialised so they arrive in order), then schedules the consistency check. */
  private _sendFlag(): Promise<void> {
    const run = async () => {
      const flag = this.flag();
      await withRetries(FLAG_RETRIES, async () => {
        await this._ctx.signal()?.request('mute-flag', { flag });
      });
      this._ackedFlag = flag;
      clearTimeout(this._checkTimer);
      this._checkTimer = setTimeout(() => this._checkConsistency(), PUBLISH_STATE_CHECK_MS);
    };
    this._flagQueue = this._flagQueue.then(run, run);
    return this._flagQueue;
  }

  /** docs/behaviour.md §4: 10 s after a flag change, logs any mismatch between local and server publish state. */
  private _checkConsistency(): void {
    if (!this._ctx.joined() || !this._uplink) return;
    const mismatches = checkPublishConsistency(this.flag(), this._ackedFlag, (slot) => !!this._sending(slot),
      (slot) => !!this._uplink?.sender(slot).track);
    for (const mismatch of mismatches) log.warn(`publish state mismatch: ${mismatch}`);
  }
}

/** Lists differences between what is published locally, what the server acknowledged and what the senders send. */
export function checkPublishConsistency(localFlag: number, serverFlag: number | undefined, shouldSend: (slot: UplinkSlot) => boolean,
  sends: (slot: UplinkSlot) => boolean): string[] {
  const mismatches: string[] = [];
  if (serverFlag !== localFlag) mismatches.push(`local flag ${localFlag}, server flag ${serverFlag ?? 'none'}`);
  for (const slot of UPLINK_SLOTS) {
    if (shouldSend(slot) !== sends(slot)) mismatches.push(`${slot} should ${shouldSend(slot) ? '' : 'not '}be sending`);
  }
  return mismatches;
}
