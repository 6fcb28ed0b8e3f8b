import type { PeerInfo, PushMap, PushName, RoleCode } from '@conclave/protocol';

/** The participant's signalling connection, as the room sees it. */
export interface ParticipantLink {
  /** Delivers a push. */
  push<P extends PushName>(push: P, data: PushMap[P]): void;
  /** Removes the participant from the room and ends its connection, telling it why. */
  evict(data: PushMap['banned']): void;
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
  /** Source users this participant receives from. */
  readonly subscriptions = new Set<string>();
  readonly link: ParticipantLink;

  constructor(id: string, userId: string, tinyId: string, role: RoleCode, link: ParticipantLink) {
    this.id = id;
    this.userId = userId;
    this.tinyId = tinyId;
    this.role = role;
    this.link = link;
  }

  /** Sends a push to this participant. */
  push<P extends PushName>(push: P, data: PushMap[P]): void {
    this.link.push(push, data);
  }

  /** How others see this participant. */
  info(): PeerInfo {
    return { userId: this.userId, tinyId: this.tinyId, role: this.role, flag: this.flag };
  }
}
