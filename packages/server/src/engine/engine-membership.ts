import { EngineError } from './media-engine.js';

/**
 * What every engine keeps about its participants, whatever its media machinery: which engine room each
 * participant joined, and who waits for a source to publish. One implementation so that every engine
 * follows the contract's rules on rooms and on subscribing to a source that has not published yet.
 */
export class EngineMembership {
  readonly #roomOf = new Map<string, string>();
  readonly #published = new Set<string>();
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Cross-room shares: source → the other engine rooms whose members may subscribe to it. */
  readonly #shares = new Map<string, Set<string>>();

  /** Records the participant's room (replacing an earlier one). */
  join(participantId: string, roomId: string): void {
    this.#roomOf.set(participantId, roomId);
  }

  /** The participant's room; rejects 'not-joined' when it has none. */
  roomOf(participantId: string): string {
    const room = this.#roomOf.get(participantId);
    if (room === undefined) throw new EngineError('not-joined', `participant ${participantId} has not joined an engine room`);
    return room;
  }

  /** Throws 'not-joined' unless both participants joined the same room, or the source is shared with the subscriber's. */
  assertSameRoom(subscriberId: string, sourceId: string): void {
    const room = this.roomOf(subscriberId);
    if (room !== this.roomOf(sourceId) && !this.#shares.get(sourceId)?.has(room)) {
      throw new EngineError('not-joined', `participants ${subscriberId} and ${sourceId} are in different engine rooms`);
    }
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

  /** Forgets the participant; subscriptions waiting for it reject 'not-joined'. */
  leave(participantId: string): void {
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
