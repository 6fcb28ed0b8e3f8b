import type { PeerInfo, PushMap, PushName, RoleCode } from '@conclave/protocol';
import { PRIVILEGE } from '@conclave/usersig';
import type { SubscriptionHandle } from '../engine/media-engine.js';

/** The participant's signalling connection, as the room sees it. */
export interface ParticipantLink {
  /** Delivers a push. */
  push<P extends PushName>(push: P, data: PushMap[P]): void;
  /** Removes the participant from the room and ends its connection, telling it why. */
  evict(data: PushMap['banned']): void;
  /** Lets go of the participant without leaving the room: another connection resumed the session. */
  release(): void;
}

/** The link of a participant whose connection dropped: pushes go nowhere until a connection resumes it. */
const DETACHED: ParticipantLink = { push: () => undefined, evict: () => undefined, release: () => undefined };

/** A client as it joined: SDK version, terminal type and address. */
export interface ClientInfo {
  sdkVersion: string;
  terminalType: number;
  address?: string;
}

/** A user in a room, bound to one signalling connection. */
export class Participant {
  /** Engine-wide unique id of this session (never reused). */
  readonly id: string;
  readonly userId: string;
  readonly tinyId: string;
  role: RoleCode;
  /** Publish flag bitmask (FLAG bits). */
  flag = 0;
  /** It publishes end-to-end encrypted media (publish `encrypted`): forwarded only to subscribers that decrypt, never mixed or recorded. */
  encrypted = false;
  /**
   * What this participant receives, by source user: the engine's handles, each leaving this map when it closes
   * (the source's leave, the downlink's loss, an unsubscribe): see `receive`.
   */
  readonly subscriptions = new Map<string, SubscriptionHandle>();
  /** What the session may do: PRIVILEGE bits of its privateMapKey (all of them when it joined without one). */
  privileges: number = PRIVILEGE.ALL;
  /** What the client told about itself when it joined (call records). */
  client: ClientInfo | undefined;
  /** When the user joined (ms since the epoch). */
  readonly joinedAt = Date.now();
  link: ParticipantLink;
  /** Proves that a reconnecting client is this session (JoinData.resumeToken). */
  readonly sessionToken: string;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(id: string, userId: string, tinyId: string, role: RoleCode, link: ParticipantLink, sessionToken: string) {
    this.sessionToken = sessionToken;
    this.id = id;
    this.userId = userId;
    this.tinyId = tinyId;
    this.role = role;
    this.link = link;
  }

  /** Records a subscription to `sourceUserId` until its handle closes. */
  receive(sourceUserId: string, handle: SubscriptionHandle): void {
    this.subscriptions.set(sourceUserId, handle);
    handle.onClose(() => {
      if (this.subscriptions.get(sourceUserId) === handle) this.subscriptions.delete(sourceUserId);
    });
  }

  /** Sends a push to this participant. */
  push<P extends PushName>(push: P, data: PushMap[P]): void {
    this.link.push(push, data);
  }

  /** True while the connection is gone and the session waits to be resumed. */
  get detached(): boolean {
    return this.#graceTimer !== undefined;
  }

  /** The connection dropped: keep the session for `graceMs`, then call `expire`. */
  detach(graceMs: number, expire: () => void): void {
    this.link = DETACHED;
    clearTimeout(this.#graceTimer);
    this.#graceTimer = setTimeout(() => {
      this.#graceTimer = undefined;
      expire();
    }, graceMs);
  }

  /** A connection takes over the session (resume). */
  attach(link: ParticipantLink): void {
    clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
    this.link = link;
  }

  /** Stops the grace timer (the session ends now). */
  dispose(): void {
    clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
  }

  /** How others see this participant. */
  info(): PeerInfo {
    return { userId: this.userId, tinyId: this.tinyId, role: this.role, flag: this.flag };
  }
}
