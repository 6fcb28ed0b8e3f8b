import { EngineError, type DownlinkMids, type HandleCloseReason } from './media-engine.js';
import { OwnedSubscription, OwnedUplink, type HandleRelease, type HandleReport } from './engine-handles.js';

/** One participant's engine-side record: the handles it owns, closed with it (docs/architecture.md "The media-engine contract"). */
class EngineMember {
  /** Why it went (its leave, its room's end, the engine's close); undefined while it is in. */
  gone: HandleCloseReason | undefined;
  uplink: OwnedUplink | undefined;
  /** Counts its unpublishes: a publish that started before the last one is overtaken by it. */
  unpublishes = 0;
  /** Its subscriptions, by source. */
  readonly subscriptions = new Map<string, OwnedSubscription>();
}

/** A publish under way (EngineMembership.beginPublish). */
export interface PublishStart {
  /** Hands the negotiated uplink to the participant's record: its handle, closed (and released) when overtaken. */
  adopt(answerSdp: string, release: HandleRelease): OwnedUplink;
  /** Why the publish is overtaken (its participant left, or unpublished since it started); undefined while it is not. */
  overtaken(): HandleCloseReason | undefined;
}

/**
 * What every engine keeps about its participants, whatever its media machinery: which engine room each
 * participant joined, who waits for a source to publish, and the handles each participant owns (its uplink, its
 * subscriptions). One implementation so that every engine follows the contract's rules on rooms, on subscribing
 * to a source that has not published yet, and on handles: a leave closes them, and an operation that completes
 * after its participant left hands back a closed handle, having released what it made.
 */
export class EngineMembership {
  readonly #report: HandleReport;
  readonly #members = new Map<string, EngineMember>();
  readonly #roomOf = new Map<string, string>();
  readonly #published = new Set<string>();
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Cross-room shares: source → the other engine rooms whose members may subscribe to it. */
  readonly #shares = new Map<string, Set<string>>();

  /** `report` is told what went wrong while a handle closed (a release that failed: the engine's cleanup-failed). */
  constructor(report: HandleReport) {
    this.#report = report;
  }

  /** Records the participant's room (replacing an earlier one). */
  join(participantId: string, roomId: string): void {
    this.#roomOf.set(participantId, roomId);
    if (!this.#members.has(participantId)) this.#members.set(participantId, new EngineMember());
  }

  /**
   * Starts a publish of the participant (throws 'not-joined' before join): `adopt` hands the negotiated uplink to
   * the participant's record as its handle, replacing its earlier one ('replaced'). When the participant left
   * meanwhile, or unpublished after this call (`overtaken` tells), the handle comes back closed and `release` has
   * been called: nothing of the publish stays.
   */
  beginPublish(participantId: string): PublishStart {
    this.roomOf(participantId);
    const member = this.#members.get(participantId)!;
    const unpublishes = member.unpublishes;
    const overtaken = () => member.gone ?? (member.unpublishes !== unpublishes ? 'unpublished' : undefined);
    const adopt = (answerSdp: string, release: HandleRelease): OwnedUplink => {
      const handle = new OwnedUplink(participantId, answerSdp, release, this.#report);
      if (overtaken()) {
        void handle.release(overtaken()!);
        return handle;
      }
      member.uplink?.end('replaced');
      member.uplink = handle;
      handle.onClose(() => { if (member.uplink === handle) member.uplink = undefined; });
      return handle;
    };
    return { adopt, overtaken };
  }

  /** The participant's uplink handle, if it has one open. */
  uplinkOf(participantId: string): OwnedUplink | undefined {
    return this.#members.get(participantId)?.uplink;
  }

  /** Unpublish: closes the uplink's handle ('unpublished', releasing it) and overtakes the publishes under way. */
  unpublish(participantId: string): Promise<void> {
    const member = this.#members.get(participantId);
    if (!member) return Promise.resolve();
    member.unpublishes++;
    return member.uplink?.release('unpublished') ?? Promise.resolve();
  }

  /**
   * Starts a subscription (both sides must have joined): the returned function hands the subscription to the
   * subscriber's record as its handle (replacing one to the same source: 'replaced'). When either side left
   * meanwhile, or the cross-room share that let the subscriber reach the source ended, the handle comes back
   * closed ('left', 'source-left', 'unshared') and `release` has been called.
   */
  beginSubscribe(subscriberId: string, sourceId: string): (mids: DownlinkMids, release: HandleRelease) => OwnedSubscription {
    this.assertSameRoom(subscriberId, sourceId);
    const subscriber = this.#members.get(subscriberId)!;
    const source = this.#members.get(sourceId)!;
    return (mids, release) => {
      const handle = new OwnedSubscription(subscriberId, sourceId, mids, release, this.#report);
      const overtaken = subscriber.gone ?? (source.gone ? 'source-left' : !this.#reaches(subscriberId, sourceId) ? 'unshared' : undefined);
      if (overtaken) {
        void handle.release(overtaken);
        return handle;
      }
      subscriber.subscriptions.get(sourceId)?.end('replaced');
      subscriber.subscriptions.set(sourceId, handle);
      handle.onClose(() => { if (subscriber.subscriptions.get(sourceId) === handle) subscriber.subscriptions.delete(sourceId); });
      return handle;
    };
  }

  /** Closes the subscription's handle without releasing it (the caller ends the subscription); false when there was none. */
  endSubscription(subscriberId: string, sourceId: string, reason: HandleCloseReason): boolean {
    return this.#members.get(subscriberId)?.subscriptions.get(sourceId)?.end(reason) ?? false;
  }

  /** Closes every subscription handle of the subscriber, releasing nothing: its downlink went, taking them along. */
  endSubscriptions(subscriberId: string, reason: HandleCloseReason): void {
    const member = this.#members.get(subscriberId);
    for (const handle of [...(member?.subscriptions.values() ?? [])]) handle.end(reason);
  }

  /**
   * Closes every handle of every participant, releasing nothing (the media server went with them): nobody
   * publishes any more; the records (rooms, shares) stay.
   */
  endMedia(reason: HandleCloseReason): void {
    for (const member of this.#members.values()) {
      member.uplink?.end(reason);
      for (const handle of [...member.subscriptions.values()]) handle.end(reason);
    }
    this.#published.clear();
  }

  /** The participant's room; rejects 'not-joined' when it has none. */
  roomOf(participantId: string): string {
    const room = this.#roomOf.get(participantId);
    if (room === undefined) throw new EngineError('not-joined', `participant ${participantId} has not joined an engine room`);
    return room;
  }

  /** Throws 'not-joined' unless both participants joined the same room, or the source is shared with the subscriber's. */
  assertSameRoom(subscriberId: string, sourceId: string): void {
    this.roomOf(subscriberId);
    this.roomOf(sourceId);
    if (!this.#reaches(subscriberId, sourceId)) {
      throw new EngineError('not-joined', `participants ${subscriberId} and ${sourceId} are in different engine rooms`);
    }
  }

  /** Whether the subscriber's room holds the source, or the source is shared with it. */
  #reaches(subscriberId: string, sourceId: string): boolean {
    const room = this.#roomOf.get(subscriberId);
    return room !== undefined && (room === this.#roomOf.get(sourceId) || this.#shares.get(sourceId)?.has(room) === true);
  }

  /** Lets the members of `roomId` subscribe to `sourceId` (a cross-room link); rejects 'not-joined' when the source has no room. */
  share(sourceId: string, roomId: string): void {
    this.roomOf(sourceId);
    const rooms = this.#shares.get(sourceId) ?? new Set();
    rooms.add(roomId);
    this.#shares.set(sourceId, rooms);
  }

  /** Ends a share; true when there was one. */
  unshare(sourceId: string, roomId: string): boolean {
    const rooms = this.#shares.get(sourceId);
    const had = rooms?.delete(roomId) ?? false;
    if (rooms?.size === 0) this.#shares.delete(sourceId);
    return had;
  }

  /** The rooms `sourceId` is shared with. */
  sharesOf(sourceId: string): string[] {
    return [...(this.#shares.get(sourceId) ?? [])];
  }

  /** The participants that joined `roomId`. */
  membersOf(roomId: string): string[] {
    return [...this.#roomOf].filter(([, room]) => room === roomId).map(([id]) => id);
  }

  /** The participant publishes now: subscriptions waiting for it go on. */
  published(participantId: string): void {
    this.#published.add(participantId);
    const waiters = this.#waiters.get(participantId);
    this.#waiters.delete(participantId);
    for (const resume of waiters ?? []) resume();
  }

  /** The participant stopped publishing. */
  unpublished(participantId: string): void {
    this.#published.delete(participantId);
  }

  /** Resolves once the source publishes; rejects 'not-published' after `timeoutMs`, 'not-joined' when it leaves. */
  whenPublished(sourceId: string, timeoutMs: number): Promise<void> {
    if (this.#published.has(sourceId)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiters = this.#waiters.get(sourceId) ?? new Set();
      this.#waiters.set(sourceId, waiters);
      const resume = () => {
        clearTimeout(timer);
        waiters.delete(resume);
        if (this.#published.has(sourceId)) resolve();
        else reject(new EngineError('not-joined', `participant ${sourceId} left before publishing`));
      };
      const timer = setTimeout(() => {
        waiters.delete(resume);
        reject(new EngineError('not-published', `participant ${sourceId} did not publish within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(resume);
    });
  }

  /**
   * The room's end, with the engine's own operations: the shares of other rooms' sources with it end (`unshare`),
   * then its members are removed (`remove`, whose leave closes their handles 'room-ended'). Both start at once: a
   * participant who joins a new room of the same id afterwards is not touched.
   */
  endRoom(roomId: string, unshare: (sourceId: string) => Promise<void>, remove: (participantId: string) => Promise<void>): Promise<void> {
    const shared = [...this.#shares].filter(([, rooms]) => rooms.has(roomId)).map(([source]) => source);
    const members = this.membersOf(roomId);
    return Promise.all([...shared.map(unshare), ...members.map(remove)]).then(() => undefined);
  }

  /**
   * Forgets the participant and closes what it owns (the cascade): its uplink's handle is released, its own
   * subscriptions' handles close unreleased (the engine closes the downlink that carries them), and its
   * subscribers' handles to it are released ('source-left'). Subscriptions waiting for it reject 'not-joined'.
   * Every handle is closed when this returns; the promise resolves once their releases are done (never rejects).
   */
  leave(participantId: string, reason: 'left' | 'room-ended' | 'engine-closed' = 'left'): Promise<void> {
    const member = this.#members.get(participantId);
    this.#members.delete(participantId);
    const releases: Promise<void>[] = [];
    if (member) {
      member.gone = reason;
      if (member.uplink) releases.push(member.uplink.release(reason));
      for (const handle of [...member.subscriptions.values()]) handle.end(reason);
      for (const other of this.#members.values()) {
        const handle = other.subscriptions.get(participantId);
        if (handle) releases.push(handle.release(reason === 'left' ? 'source-left' : reason));
      }
    }
    this.#forget(participantId);
    return Promise.all(releases).then(() => undefined);
  }

  #forget(participantId: string): void {
    this.#roomOf.delete(participantId);
    this.#shares.delete(participantId);
    this.#published.delete(participantId);
    const waiters = this.#waiters.get(participantId);
    this.#waiters.delete(participantId);
    for (const resume of waiters ?? []) resume();
  }

  /** Every participant that joined. */
  participants(): string[] {
    return [...this.#roomOf.keys()];
  }
}
