import { SerialQueue } from '../common/resource-queue.js';
import { log } from '../log/logger.js';
import { applyJitterTarget, jitterTargets } from '../playback/jitter-target.js';
import { operationFailed } from '../errors/catalogue.js';
import type { DownlinkMids, DownlinkOffer } from '@conclave/protocol';
import { Downlink, type DownlinkSlot } from '../transport/downlink.js';
import type { RemoteUser, SmallPreference } from './remote-user.js';
import type { RoomContext } from './room-context.js';
import { computeWants, sameWants, wantsAnything, type Wants } from './wants.js';

/** Subscribe (exchange SDP) and subscription-change time-outs (docs/behaviour.md §7, §9: 10 s). */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;
/** Re-subscription tries of a big/small switch before the preference is dropped (docs/behaviour.md §9: 10). */
export const SMALL_SWITCH_RETRIES = 10;
/** Delay between re-subscriptions of a failed big/small switch. */
const SMALL_SWITCH_RETRY_DELAY_MS = 1_000;

type Tracks = Partial<Record<DownlinkSlot, MediaStreamTrack>>;

/** What subscriptions need from the roster around them. */
export interface SubscriptionHost {
  readonly ctx: RoomContext;
  /** True while `user` is the one in the roster (not left, not replaced). */
  current(user: RemoteUser): boolean;
  /** What is received of `user` changed (subscription or tracks): players follow. */
  mediaChanged(user: RemoteUser, tracks: Tracks, sent: Wants | undefined): void;
  /** Which of `user`'s videos with receiveWhenViewVisible have their view out of sight. */
  hidden(user: RemoteUser): Readonly<Partial<Record<'main' | 'sub', boolean>>>;
  /** A big/small switch failed SMALL_SWITCH_RETRIES times: the roster drops `preference` (if still the user's). */
  switchFailed(user: RemoteUser): void;
}



/** Makes the client's receive-only peer connection (replaceable in tests). */
export type DownlinkFactory = (iceServers: RTCIceServer[], policy: RTCIceTransportPolicy, onTrack: () => void,
  encoded?: (mid: string, slot: DownlinkSlot, receiver: RTCRtpReceiver) => void) => Downlink;

/** One subscription on the downlink: its mids and receivers, and what the server sends on them. */
interface Carried {
  mids: DownlinkMids;
  receivers: Record<DownlinkSlot, RTCRtpReceiver>;
  sent?: Wants;
}

const newDownlink: DownlinkFactory = (iceServers, policy, onTrack, encoded) => new Downlink(iceServers, policy, onTrack, encoded);

/**
 * What is received of each remote user (docs/behaviour.md §4, §7): the wanted subscription (audio, big or small
 * video, auxiliary video) computed from the remote's flags and the app's requests, brought in line with
 * the server over signalling, serialised per user. A failed big/small switch is retried up to 10 times,
 * then the preference is dropped.
 *
 * Transport: one receive-only downlink for every remote user (docs/architecture.md "Media path"). `subscribe`
 * replies with the mids of the three m-lines carrying the user (the server pushes a `downlink-offer`
 * first when it adds m-lines, answered with `downlink-answer`); `subscribe-change` changes what flows
 * without renegotiation; `unsubscribe` frees the m-lines for the next user. A failed downlink is
 * discarded with `downlink-reset` and every user subscribed again. Only the methods under
 * "transport" below know that.
 */
export class Subscriptions {
  private readonly _host: SubscriptionHost;
  private readonly _links = new Map<RemoteUser, Carried>();
  /** Serialises the subscription changes of each user (for as long as the roster holds it). */
  private readonly _queues = new WeakMap<RemoteUser, SerialQueue>();
  /** Re-subscription tries left of each big/small preference that failed to switch. */
  private readonly _triesLeft = new WeakMap<SmallPreference, number>();
  private readonly _createDownlink: DownlinkFactory;
  private _downlink: Downlink | undefined;
  /** A downlink-reset in progress: offers are dropped until it is answered, subscriptions wait for it. */
  private _resetting: Promise<unknown> | undefined;
  /** Which user each m-line carries now (for SEI, read at each frame). */
  private readonly _midUser = new Map<string, string>();
  /** CPU pressure (serious or worse) receives small streams where published (adaptation/pressure.ts). */
  private _pressureSmall = false;

  constructor(host: SubscriptionHost, createDownlink: DownlinkFactory = newDownlink) {
    this._host = host;
    this._createDownlink = createDownlink;
  }

  /** What should be subscribed of `user` now. */
  wants(user: RemoteUser): Wants {
    const config = this._host.ctx.config();
    const hidden = this._host.hidden(user);
    return computeWants({
      state: user.state,
      autoReceiveAudio: config?.autoReceiveAudio ?? true,
      autoReceiveVideo: config?.autoReceiveVideo ?? false,
      audioRequested: user.audioRequested,
      mainRequested: user.videoRequests.main !== undefined,
      subRequested: user.videoRequests.sub !== undefined,
      mainHidden: hidden.main,
      subHidden: hidden.sub,
      // The app's own big/small choice (setRemoteVideoStreamType) wins over the automatic one of CPU pressure.
      preferSmall: user.preference ? user.preference.small : this._pressureSmall,
    });
  }

  /** Under CPU pressure, prefers every remote user's small stream (where published); resyncs the received users. */
  setPressureSmall(on: boolean): void {
    if (on === this._pressureSmall) return;
    this._pressureSmall = on;
    for (const user of this._links.keys()) this.syncLater(user, on ? 'pressure: small stream' : 'pressure over: big stream');
  }

  /** The subscription the server has of `user` now (undefined: none). */
  sent(user: RemoteUser): Wants | undefined {
    return this._links.get(user)?.sent;
  }

  /**
   * Brings the server's subscription for `user` in line with what is wanted: subscribe, a
   * subscription change, or an unsubscribe when nothing stays subscribed. Serialised per user.
   * @throws what signalling throws; an unsubscribe refused by the server is OPERATION_FAILED (the
   * local side is released anyway).
   */
  sync(user: RemoteUser): Promise<void> {
    let queue = this._queues.get(user);
    if (!queue) this._queues.set(user, queue = new SerialQueue());
    return queue.run(async () => {
      const signal = this._host.ctx.signal();
      if (!signal || !this._host.current(user)) return;
      const wants = this.wants(user);
      if (!wantsAnything(wants)) {
        if (this._links.has(user)) await this._unsubscribe(user);
        return;
      }
      const sent = this.sent(user);
      if (this._links.has(user) && !sameWants(sent, wants)) {
        const switching = sent !== undefined && (sent.smallVideo !== wants.smallVideo || sent.bigVideo !== wants.bigVideo);
        try {
          await this._change(user, wants);
          if (switching && user.preference) this._triesLeft.delete(user.preference);
        } catch (error) {
          // Unless the downlink was reset meanwhile (the server dropped it and said so before this reply, so the
          // change is moot): the user is then subscribed afresh below, as the reset's own resync would.
          if (this._links.has(user)) {
            if (switching) this._retrySwitch(user);
            throw error;
          }
        }
      }
      if (!this._links.has(user)) await this._subscribe(user, wants);
      const carried = this._links.get(user);
      if (carried) carried.sent = wants;
      this._mediaChanged(user);
    });
  }

  /** Syncs in the background (a remote's change, a reconnection): a failure is logged. */
  syncLater(user: RemoteUser, why: string): void {
    this.sync(user).catch((error: unknown) => log.warn(`${why}: subscription to '${user.userId}' failed:`, error));
  }

  /** A big/small switch failed: try again later, at most SMALL_SWITCH_RETRIES times, then drop the preference. */
  private _retrySwitch(user: RemoteUser): void {
    const preference = user.preference;
    if (!preference) return;
    const left = (this._triesLeft.get(preference) ?? SMALL_SWITCH_RETRIES) - 1;
    this._triesLeft.set(preference, left);
    if (left <= 0) {
      log.warn(`switching ${user.userId} to the ${preference.small ? 'small' : 'big'} video failed ${SMALL_SWITCH_RETRIES} times; giving up`);
      this._host.switchFailed(user);
      return;
    }
    setTimeout(() => {
      if (this._host.current(user) && user.preference === preference) this.syncLater(user, 'big/small switch retry');
    }, SMALL_SWITCH_RETRY_DELAY_MS);
  }

  private _mediaChanged(user: RemoteUser): void {
    this._host.mediaChanged(user, this.tracks(user), this.sent(user));
  }

  // ---- transport ----

  /** The tracks received of `user` (subscribed or not). */
  tracks(user: RemoteUser): Tracks {
    const carried = this._links.get(user);
    if (!carried) return {};
    const { audio, video, aux } = carried.receivers;
    return { audio: audio.track, video: video.track, aux: aux.track };
  }

  /**
   * The peer connection media arrives on, with the mids of each remote user and whether its main video is the
   * small stream (for statistics: they report 'small').
   */
  peerConnections(): { userId: string; pc: RTCPeerConnection; mids: DownlinkMids; smallVideo: boolean }[] {
    const pc = this._downlink?.peerConnection;
    return pc ? [...this._links].map(([user, carried]) => ({ userId: user.userId, pc, mids: carried.mids, smallVideo: carried.sent?.smallVideo === true })) : [];
  }

  /** The downlink peer connection, if any. */
  get peerConnection(): RTCPeerConnection | undefined {
    return this._downlink?.peerConnection;
  }

  /** A server offer for the downlink: applied in order, answered at once. */
  onOffer(offer: DownlinkOffer): void {
    if (this._resetting) return; // meant for the downlink being discarded
    const downlink = this._ensureDownlink();
    downlink.answer(offer.sdp)
      .then((sdp) => this._host.ctx.signal()?.request('downlink-answer', { seq: offer.seq, sdp }, SUBSCRIBE_TIMEOUT_MS))
      .catch((error: unknown) => log.warn(`downlink offer ${offer.seq} failed:`, error));
  }

  /**
   * Discards the downlink (it failed, or a new server session has none): every subscription ends
   * locally and on the server, players stop; the caller subscribes again.
   */
  resetDownlink(): void {
    for (const user of [...this._links.keys()]) this.close(user);
    this._downlink?.close();
    this._downlink = undefined;
    this._midUser.clear();
    const signal = this._host.ctx.signal();
    if (!signal) return;
    const reset = signal.request('downlink-reset', {}, SUBSCRIBE_TIMEOUT_MS).catch((error: unknown) => log.warn('downlink reset failed:', error));
    this._resetting = reset;
    void reset.finally(() => {
      if (this._resetting === reset) this._resetting = undefined;
    });
  }

  private _ensureDownlink(): Downlink {
    if (this._downlink) return this._downlink;
    const ctx = this._host.ctx;
    const encoded = ctx.encoded?.();
    const downlink = this._createDownlink(ctx.iceServers(), ctx.iceTransportPolicy(), () => {
      for (const user of this._links.keys()) this._mediaChanged(user);
    }, encoded && ((mid, slot, receiver) => encoded.receiver(() => this._midUser.get(mid) ?? '', slot, receiver)));
    this._downlink = downlink;
    ctx.watchLink(downlink.peerConnection, 'downlink');
    return downlink;
  }

  private async _subscribe(user: RemoteUser, wants: Wants): Promise<void> {
    await this._resetting;
    const ctx = this._host.ctx;
    const signal = ctx.signal();
    if (!signal) return;
    const downlink = this._ensureDownlink();
    const mids = await signal.request('subscribe', { srcUserId: user.userId, ...wants, ...(this._host.ctx.e2ee?.() ? { decrypts: true } : {}) }, SUBSCRIBE_TIMEOUT_MS);
    const receivers = await downlink.receivers(mids, SUBSCRIBE_TIMEOUT_MS);
    if (this._downlink !== downlink) throw new Error('the downlink was reset meanwhile');
    // jitterBufferDelay / playoutDelay of enterRoom, on each receiver of the user.
    const targets = jitterTargets(ctx.config());
    for (const [slot, receiver] of Object.entries(receivers)) applyJitterTarget(receiver, slot as 'audio' | 'video' | 'aux', targets);
    for (const slot of ['audio', 'video', 'aux'] as const) this._midUser.set(mids[slot], user.userId);
    this._links.set(user, { mids, receivers });
  }

  private async _change(user: RemoteUser, wants: Wants): Promise<void> {
    await this._host.ctx.signal()?.request('subscribe-change', { srcUserId: user.userId, ...wants }, SUBSCRIBE_TIMEOUT_MS);
  }

  private async _unsubscribe(user: RemoteUser): Promise<void> {
    const signal = this._host.ctx.signal();
    try {
      await signal?.request('unsubscribe', { srcUserId: user.userId });
    } catch (error) {
      // Nothing is wanted any more: release the local side whatever the server said.
      log.warn(`unsubscribe from '${user.userId}' failed:`, error);
      throw operationFailed(undefined, `unsubscribe failed: ${(error as Error)?.message ?? String(error)}`, undefined, error);
    } finally {
      this.close(user);
    }
  }

  /**
   * Forgets what carries `user`'s media (its m-lines stay on the downlink for the next user); players
   * stop. What the app asked for is kept for a resubscription.
   */
  close(user: RemoteUser): void {
    const carried = this._links.get(user);
    if (carried) for (const slot of ['audio', 'video', 'aux'] as const) this._midUser.delete(carried.mids[slot]);
    this._links.delete(user);
    this._mediaChanged(user);
  }

  /** Closes every link (the room is left or reset). */
  closeAll(): void {
    for (const user of [...this._links.keys()]) this.close(user);
    this._downlink?.close();
    this._downlink = undefined;
    this._midUser.clear();
  }
}
