import { encodeFlag } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, operationFailed } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { SignalChannelError } from '../signal/signal-channel.js';
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

/** publish-state-changed states (SPEC §4). */
export type PublishState = 'starting' | 'started' | 'stopped';

/** SPEC §7: publish and mute-flag requests are retried 3 times. */
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

/** SPEC §9: the publish-state consistency check runs 10 s after a flag change. */
export const PUBLISH_STATE_CHECK_MS = 10_000;

const MEDIA_TYPE: Partial<Record<UplinkSlot, 'audio' | 'video' | 'screen'>> = { audio: 'audio', video: 'video', aux: 'screen' };

/**
 * The local side of the room: what is captured per uplink slot, the uplink peer connection, and the
 * publish flags the server relays to the others. The small video is its own slot (index 2), fed by the
 * camera track scaled down; it is muted with the big video.
 */
export class Publisher {
  readonly #ctx: RoomContext;
  readonly #local: Partial<Record<UplinkSlot, LocalSlot>> = {};
  readonly #state: Partial<Record<UplinkSlot, PublishState>> = {};
  #uplink: Uplink | undefined;
  #flagQueue: Promise<void> = Promise.resolve();
  /** The flag the server last acknowledged. */
  #ackedFlag: number | undefined;
  #checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** False for an audience in the live scene. */
  canPublish: () => boolean;

  constructor(ctx: RoomContext, canPublish: () => boolean) {
    this.#ctx = ctx;
    this.canPublish = canPublish;
  }

  get peerConnection(): RTCPeerConnection | undefined {
    return this.#uplink?.peerConnection;
  }

  /** The uplink, while one exists (for stats and encoded transforms). */
  get uplink(): Uplink | undefined {
    return this.#uplink;
  }

  /** What a slot holds. */
  local(slot: UplinkSlot): Readonly<LocalSlot> | undefined {
    return this.#local[slot];
  }

  /** Puts (or clears) a local track on a slot; when joined, sends it and the new flags. */
  async setLocalTrack(slot: UplinkSlot, local: LocalSlot | undefined): Promise<void> {
    if (local) this.#local[slot] = local;
    else delete this.#local[slot];
    if (!this.#ctx.joined()) {
      if (!local) this.#setState(slot, 'stopped', 'api-call');
      return;
    }
    await this.#apply(slot);
  }

  /** After joining, a role switch or a reconnection: publishes whatever is captured. */
  async publishPending(): Promise<void> {
    if (!this.#ctx.joined() || !this.canPublish()) return;
    await Promise.all((Object.keys(this.#local) as UplinkSlot[]).map((slot) => this.#apply(slot)));
  }

  async #apply(slot: UplinkSlot): Promise<void> {
    const signal = this.#ctx.signal();
    if (!signal || !this.canPublish()) return;
    const local = this.#local[slot];
    if (!local) this.#setState(slot, 'stopped', 'api-call');
    if (!local && Object.keys(this.#local).length === 0) {
      // Nothing left to send: close the uplink (SPEC §4); the server clears our flags.
      if (this.#uplink) {
        this.closeUplink();
        this.#ackedFlag = 0;
        await signal.request('unpublish', {});
      }
      return;
    }
    if (local && slot !== 'audio' && !canEncodeVideo()) {
      const error = envNotSupported(EXTRA_CODE.H264_ENCODE, 'not supported H264 encode');
      this.#setState(slot, 'stopped', 'error', error);
      throw error;
    }
    if (local) this.#setState(slot, 'starting');
    if (local && !this.#uplink) {
      const encoded = this.#ctx.encoded?.();
      this.#uplink = new Uplink(this.#ctx.iceServers(), this.#ctx.iceTransportPolicy(), encoded && ((slot, sender) => encoded.sender(slot, sender)));
      this.#ctx.watchLink(this.#uplink.peerConnection, 'uplink');
    }
    const uplink = this.#uplink;
    if (!uplink) return;
    try {
      await uplink.setTrack(slot, this.#sending(slot), local?.encoding);
      await withRetries(FLAG_RETRIES, () => uplink.connect(async (offer) => (await signal.request('publish', { sdp: offer })).sdp, this.#mediaSettings()));
      await this.#sendFlag();
    } catch (error) {
      const timedOut = error instanceof SignalChannelError && error.reason === 'timeout';
      if (local && this.#local[slot] === local) this.#setState(slot, 'stopped', timedOut ? 'timeout' : 'error', RtcError.convertFrom(error));
      throw error;
    }
    if (local && this.#local[slot] === local) this.#setState(slot, 'started');
  }

  /** The track a slot sends now: none when muted (the small video follows the big video's mute). */
  #sending(slot: UplinkSlot): MediaStreamTrack | null {
    const local = this.#local[slot];
    if (!local || local.muted) return null;
    if (slot === 'small' && this.#local.video?.muted) return null;
    return local.track;
  }

  /** Settings fixed at negotiation: start bitrate from the camera profile, opus channels and bitrate. */
  #mediaSettings() {
    const audio = this.#local.audio;
    return {
      startBitrateKbps: this.#local.video?.encoding?.maxBitrateKbps ?? this.#local.aux?.encoding?.maxBitrateKbps,
      stereo: audio?.stereo === true,
      audioBitrateKbps: audio?.encoding?.maxBitrateKbps,
    };
  }

  /** Replaces the track of a published slot without renegotiation (device switch). */
  async replaceTrack(slot: UplinkSlot, track: MediaStreamTrack, encoding?: SlotEncoding): Promise<void> {
    const local = this.#local[slot];
    if (!local) return;
    local.track = track;
    if (encoding) local.encoding = encoding;
    if (this.#ctx.joined() && this.canPublish()) await this.#uplink?.setTrack(slot, this.#sending(slot), local.encoding);
  }

  /** Changes the encoding of a published slot (profile, qosPreference) without renegotiation. */
  async setEncoding(slot: UplinkSlot, encoding: SlotEncoding): Promise<void> {
    const local = this.#local[slot];
    if (!local) return;
    local.encoding = { ...local.encoding, ...encoding };
    if (!this.#ctx.joined() || !this.canPublish() || !this.#sending(slot)) return;
    try {
      await this.#uplink?.setEncoding(slot, local.encoding);
    } catch (error) {
      // The app asked for this change (a profile, bitrate or qosPreference update): report it.
      log.warn(`changing the ${slot} encoding failed:`, error);
      throw operationFailed(undefined, `the ${slot} encoding parameters were refused: ${(error as Error)?.message ?? String(error)}`, undefined, error);
    }
  }

  /** Changes the mute flag of a slot; a muted slot sends nothing (a muted big video stops the small one too). */
  async setMuted(slot: UplinkSlot, muted: boolean): Promise<void> {
    const local = this.#local[slot];
    if (!local || local.muted === muted) return;
    local.muted = muted;
    if (!this.#ctx.joined() || !this.canPublish()) return;
    await this.#uplink?.setTrack(slot, this.#sending(slot), local.encoding);
    if (slot === 'video' && this.#local.small) await this.#uplink?.setTrack('small', this.#sending('small'), this.#local.small.encoding);
    await this.#sendFlag();
  }

  /** Closes the uplink (role switch to audience, reconnection); the captured tracks stay. */
  closeUplink(): void {
    clearTimeout(this.#checkTimer);
    this.#uplink?.close();
    this.#uplink = undefined;
  }

  #setState(slot: UplinkSlot, state: PublishState, reason?: 'timeout' | 'error' | 'api-call', error?: RtcError): void {
    const mediaType = MEDIA_TYPE[slot];
    const prevState = this.#state[slot] ?? 'stopped';
    if (!mediaType || prevState === state) return;
    this.#state[slot] = state;
    this.#ctx.events.emit('publish-state-changed', { mediaType, state, prevState, ...(state === 'stopped' && reason ? { reason } : {}), ...(error ? { error } : {}) });
  }

  /** The publish flag bits (SPEC §3) of what is published now. */
  flag(): number {
    return encodeFlag({
      hasAudio: !!this.#local.audio,
      audioMuted: !!this.#local.audio?.muted,
      hasVideo: !!this.#local.video,
      videoMuted: !!this.#local.video?.muted,
      hasSmall: !!this.#local.small && !!this.#local.video,
      hasAuxiliary: !!this.#local.aux,
      auxMuted: !!this.#local.aux?.muted,
    });
  }

  /** Sends our current publish flags (serialised so they arrive in order), then schedules the consistency check. */
  #sendFlag(): Promise<void> {
    const run = async () => {
      const flag = this.flag();
      await withRetries(FLAG_RETRIES, async () => {
        await this.#ctx.signal()?.request('mute-flag', { flag });
      });
      this.#ackedFlag = flag;
      clearTimeout(this.#checkTimer);
      this.#checkTimer = setTimeout(() => this.#checkConsistency(), PUBLISH_STATE_CHECK_MS);
    };
    this.#flagQueue = this.#flagQueue.then(run, run);
    return this.#flagQueue;
  }

  /** SPEC §4: 10 s after a flag change, logs any mismatch between local and server publish state. */
  #checkConsistency(): void {
    if (!this.#ctx.joined() || !this.#uplink) return;
    const mismatches = checkPublishConsistency(this.flag(), this.#ackedFlag, (slot) => !!this.#sending(slot),
      (slot) => !!this.#uplink?.sender(slot).track);
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
