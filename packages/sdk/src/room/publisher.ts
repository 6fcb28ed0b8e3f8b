import { encodeFlag } from '@conclave/protocol';
import { Uplink, type UplinkSlot } from '../transport/uplink.js';
import type { RoomContext } from './room-context.js';

/** What the local side publishes on one uplink slot. */
export interface LocalSlot {
  track: MediaStreamTrack;
  bitrate?: number;
  muted: boolean;
}

/**
 * The local side of the room: what is captured per uplink slot, the uplink peer connection, and the
 * publish flags the server relays to the others.
 */
export class Publisher {
  readonly #ctx: RoomContext;
  readonly #local: Partial<Record<UplinkSlot, LocalSlot>> = {};
  #uplink: Uplink | undefined;
  #flagQueue: Promise<void> = Promise.resolve();
  /** False for an audience in the live scene. */
  canPublish: () => boolean;

  constructor(ctx: RoomContext, canPublish: () => boolean) {
    this.#ctx = ctx;
    this.canPublish = canPublish;
  }

  get peerConnection(): RTCPeerConnection | undefined {
    return this.#uplink?.peerConnection;
  }

  /** Puts (or clears) a local track on a slot; when joined, sends it and the new flags. */
  async setLocalTrack(slot: UplinkSlot, local: LocalSlot | undefined): Promise<void> {
    if (local) this.#local[slot] = local;
    else delete this.#local[slot];
    if (!this.#ctx.joined()) return;
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
    if (!local && Object.keys(this.#local).length === 0) {
      // Nothing left to send: close the uplink (SPEC §4); the server clears our flags.
      if (this.#uplink) {
        this.closeUplink();
        await signal.request('unpublish', {});
      }
      return;
    }
    if (local && !this.#uplink) {
      this.#uplink = new Uplink(this.#ctx.iceServers(), this.#ctx.iceTransportPolicy());
      this.#ctx.watchLink(this.#uplink.peerConnection, 'uplink');
    }
    const uplink = this.#uplink;
    if (!uplink) return;
    await uplink.setTrack(slot, local && !local.muted ? local.track : null, local?.bitrate);
    await uplink.connect(async (offer) => (await signal.request('publish', { sdp: offer })).sdp);
    await this.#sendFlag();
  }

  /** Replaces the track of a published slot without renegotiation (device switch). */
  async replaceTrack(slot: UplinkSlot, track: MediaStreamTrack): Promise<void> {
    const local = this.#local[slot];
    if (!local) return;
    local.track = track;
    if (!local.muted) await this.#uplink?.setTrack(slot, track, local.bitrate);
  }

  /** Changes the mute flag of a slot; a muted slot sends nothing. */
  async setMuted(slot: UplinkSlot, muted: boolean): Promise<void> {
    const local = this.#local[slot];
    if (!local || local.muted === muted) return;
    local.muted = muted;
    if (!this.#ctx.joined() || !this.canPublish()) return;
    await this.#uplink?.setTrack(slot, muted ? null : local.track, local.bitrate);
    await this.#sendFlag();
  }

  /** Closes the uplink (role switch to audience, reconnection); the captured tracks stay. */
  closeUplink(): void {
    this.#uplink?.close();
    this.#uplink = undefined;
  }

  /** Sends our current publish flags (serialised so they arrive in order). */
  #sendFlag(): Promise<void> {
    const run = async () => {
      const flag = encodeFlag({
        hasAudio: !!this.#local.audio,
        audioMuted: !!this.#local.audio?.muted,
        hasVideo: !!this.#local.video,
        videoMuted: !!this.#local.video?.muted,
        hasAuxiliary: !!this.#local.aux,
        auxMuted: !!this.#local.aux?.muted,
      });
      await this.#ctx.signal()?.request('mute-flag', { flag });
    };
    this.#flagQueue = this.#flagQueue.then(run, run);
    return this.#flagQueue;
  }
}
