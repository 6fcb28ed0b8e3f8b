import { log } from '../log/logger.js';
import { applyJitterTarget, jitterTargets } from '../playback/jitter-target.js';
import { operationFailed } from '../errors/catalogue.js';
import { Downlink } from '../transport/downlink.js';
import { computeWants, SMALL_SWITCH_RETRIES, sameWants, wantsAnything, type RemoteUser, type Wants } from './remote-user.js';
import type { RoomContext } from './room-context.js';

/** Subscribe (exchange SDP) and subscription-change time-outs (SPEC §7, §9: 10 s). */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;
/** Delay between re-subscriptions of a failed big/small switch. */
const SMALL_SWITCH_RETRY_DELAY_MS = 1_000;

type Tracks = Downlink['tracks'];

/** What subscriptions need from the roster around them. */
export interface SubscriptionHost {
  readonly ctx: RoomContext;
  /** True while `user` is the one in the roster (not left, not replaced). */
  current(user: RemoteUser): boolean;
  /** What is received of `user` changed (subscription or tracks): players follow. */
  mediaChanged(user: RemoteUser, tracks: Tracks, sent: Wants | undefined): void;
}

/** Makes the receive-only peer connection of one remote user (replaceable in tests). */
export type DownlinkFactory = (iceServers: RTCIceServer[], policy: RTCIceTransportPolicy, onTrack: () => void,
  encoded?: (slot: 'audio' | 'video' | 'aux', receiver: RTCRtpReceiver) => void) => Downlink;

const newDownlink: DownlinkFactory = (iceServers, policy, onTrack, encoded) => new Downlink(iceServers, policy, onTrack, encoded);

/**
 * What is received of each remote user (SPEC §4, §7): the wanted subscription (audio, big or small
 * video, auxiliary video) computed from the remote's flags and the app's requests, brought in line with
 * the server over signalling, serialised per user. A failed big/small switch is retried up to 10 times,
 * then the preference is dropped.
 *
 * Transport: one receive-only downlink per remote user; the server offers on `subscribe`, then
 * `subscribe-change` changes what flows without renegotiation, `unsubscribe` ends it. Only the methods
 * under "transport" below know that.
 */
export class Subscriptions {
  readonly #host: SubscriptionHost;
  readonly #links = new Map<RemoteUser, Downlink>();
  readonly #createDownlink: DownlinkFactory;

  constructor(host: SubscriptionHost, createDownlink: DownlinkFactory = newDownlink) {
    this.#host = host;
    this.#createDownlink = createDownlink;
  }

  /** What should be subscribed of `user` now. */
  wants(user: RemoteUser): Wants {
    const config = this.#host.ctx.config();
    return computeWants({
      state: user.state,
      autoReceiveAudio: config?.autoReceiveAudio ?? true,
      autoReceiveVideo: config?.autoReceiveVideo ?? false,
      audioRequested: user.audioRequested,
      mainRequested: user.videoRequests.main !== undefined,
      subRequested: user.videoRequests.sub !== undefined,
      mainHidden: user.hidden.main,
      subHidden: user.hidden.sub,
      preferSmall: user.preference?.small ?? false,
    });
  }

  /**
   * Brings the server's subscription for `user` in line with what is wanted: subscribe, a
   * subscription change, or an unsubscribe when nothing stays subscribed. Serialised per user.
   * @throws what signalling throws; an unsubscribe refused by the server is OPERATION_FAILED (the
   * local side is released anyway).
   */
  sync(user: RemoteUser): Promise<void> {
    return user.queue.run(async () => {
      const signal = this.#host.ctx.signal();
      if (!signal || !this.#host.current(user)) return;
      const wants = this.wants(user);
      if (!wantsAnything(wants)) {
        if (this.#links.has(user)) await this.#unsubscribe(user);
        return;
      }
      if (!this.#links.has(user)) {
        await this.#subscribe(user, wants);
      } else if (!sameWants(user.sent, wants)) {
        const switching = user.sent !== undefined && (user.sent.smallVideo !== wants.smallVideo || user.sent.bigVideo !== wants.bigVideo);
        try {
          await this.#change(user, wants);
        } catch (error) {
          if (switching) this.#retrySwitch(user);
          throw error;
        }
        if (switching && user.preference) user.preference.retriesLeft = SMALL_SWITCH_RETRIES;
      }
      user.sent = wants;
      this.#mediaChanged(user);
    });
  }

  /** Syncs in the background (a remote's change, a reconnection): a failure is logged. */
  syncLater(user: RemoteUser, why: string): void {
    this.sync(user).catch((error: unknown) => log.warn(`${why}: subscription to '${user.userId}' failed:`, error));
  }

  /** A big/small switch failed: try again later, at most SMALL_SWITCH_RETRIES times, then drop the preference. */
  #retrySwitch(user: RemoteUser): void {
    const preference = user.preference;
    if (!preference) return;
    preference.retriesLeft--;
    if (preference.retriesLeft <= 0) {
      log.warn(`switching ${user.userId} to the ${preference.small ? 'small' : 'big'} video failed ${SMALL_SWITCH_RETRIES} times; giving up`);
      user.preference = undefined;
      return;
    }
    setTimeout(() => {
      if (this.#host.current(user) && user.preference === preference) this.syncLater(user, 'big/small switch retry');
    }, SMALL_SWITCH_RETRY_DELAY_MS);
  }

  #mediaChanged(user: RemoteUser): void {
    this.#host.mediaChanged(user, this.tracks(user), user.sent);
  }

  // ---- transport ----

  /** The tracks received of `user` (subscribed or not). */
  tracks(user: RemoteUser): Tracks {
    return this.#links.get(user)?.tracks ?? {};
  }

  /** The peer connections media arrives on, per remote user (for statistics). */
  peerConnections(): { userId: string; pc: RTCPeerConnection }[] {
    return [...this.#links].map(([user, link]) => ({ userId: user.userId, pc: link.peerConnection }));
  }

  /** True when what carries `user`'s media is gone or failed (it is rebuilt after a reconnection). */
  linkDead(user: RemoteUser): boolean {
    const state = this.#links.get(user)?.peerConnection.connectionState;
    return state === undefined || state === 'failed' || state === 'closed';
  }

  async #subscribe(user: RemoteUser, wants: Wants): Promise<void> {
    const ctx = this.#host.ctx;
    const signal = ctx.signal();
    if (!signal) return;
    const encoded = ctx.encoded?.();
    const link = this.#createDownlink(ctx.iceServers(), ctx.iceTransportPolicy(), () => {
      // jitterBufferDelay / playoutDelay of enterRoom, on each receiver as its track arrives.
      const targets = jitterTargets(ctx.config());
      for (const [slot, receiver] of Object.entries(link.receivers ?? {})) applyJitterTarget(receiver, slot as 'audio' | 'video' | 'aux', targets);
      this.#mediaChanged(user);
    },
      encoded && ((slot, receiver) => encoded.receiver(user.userId, slot, receiver)));
    this.#links.set(user, link);
    ctx.watchLink(link.peerConnection, 'downlink', user);
    try {
      const { sdp } = await signal.request('subscribe', { srcUserId: user.userId, ...wants }, SUBSCRIBE_TIMEOUT_MS);
      const answer = await link.answer(sdp);
      await signal.request('subscribe-answer', { srcUserId: user.userId, sdp: answer }, SUBSCRIBE_TIMEOUT_MS);
    } catch (error) {
      if (this.#links.get(user) === link) this.close(user);
      throw error;
    }
  }

  async #change(user: RemoteUser, wants: Wants): Promise<void> {
    await this.#host.ctx.signal()?.request('subscribe-change', { srcUserId: user.userId, ...wants }, SUBSCRIBE_TIMEOUT_MS);
  }

  async #unsubscribe(user: RemoteUser): Promise<void> {
    const signal = this.#host.ctx.signal();
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

  /** Closes what carries `user`'s media; players stop. What the app asked for is kept for a resubscription. */
  close(user: RemoteUser): void {
    this.#links.get(user)?.close();
    this.#links.delete(user);
    user.sent = undefined;
    this.#mediaChanged(user);
  }

  /** Closes every link (the room is left or reset). */
  closeAll(): void {
    for (const user of [...this.#links.keys()]) this.close(user);
  }
}
