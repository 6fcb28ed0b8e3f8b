import { FLAG, type PeerInfo, type SubscriptionWants } from '@conclave/protocol';
import { PRIVILEGE, hasPrivilege } from '@conclave/usersig';
import { allowedWants } from '../auth/privileges.js';
import type { Participant } from './participant.js';

/** What the other room's anchors muted of a visitor there (the CrossRoom plugin's update). */
export interface VisitorMutes {
  audio: boolean;
  video: boolean;
  sub: boolean;
}

interface Visitor {
  participant: Participant;
  /** The key of the room the visitor is a member of. */
  fromRoomKey: string;
  mutes: VisitorMutes;
  /** What the visitor may send here: its own room's privileges and those of its privateMapKey for this room. */
  privileges: number;
}

/**
 * The anchors of other rooms a room sees through cross-room calls (docs/behaviour.md §7.6): its members see
 * each as a remote user (its userId, tinyId, role and flags, less what was muted here) without it being a
 * member — it gets no pushes of this room, and its own room keeps it as a member.
 */
export class RoomVisitors {
  readonly #byUserId = new Map<string, Visitor>();

  get(userId: string): Visitor | undefined {
    return this.#byUserId.get(userId);
  }

  add(participant: Participant, fromRoomKey: string, privileges: number = participant.privileges): void {
    this.#byUserId.set(participant.userId, { participant, fromRoomKey, mutes: { audio: false, video: false, sub: false }, privileges });
  }

  /** Removes the visitor when it is `participant`; true if it was. */
  remove(participant: Participant): boolean {
    if (this.#byUserId.get(participant.userId)?.participant !== participant) return false;
    return this.#byUserId.delete(participant.userId);
  }

  /** The visitors that came from the room `fromRoomKey`. */
  from(fromRoomKey: string): Visitor[] {
    return [...this.#byUserId.values()].filter((v) => v.fromRoomKey === fromRoomKey);
  }

  /** How the room's members see a visitor: its flags without what was muted here or what it may not send here. */
  info(userId: string): PeerInfo | undefined {
    const visitor = this.#byUserId.get(userId);
    if (!visitor) return undefined;
    const info = visitor.participant.info();
    const may = (bit: number) => hasPrivilege(visitor.privileges, bit);
    const audio = visitor.mutes.audio || !may(PRIVILEGE.SEND_AUDIO);
    const video = visitor.mutes.video || !may(PRIVILEGE.SEND_VIDEO);
    const sub = visitor.mutes.sub || !may(PRIVILEGE.SEND_SUB_VIDEO);
    const hidden = (audio ? FLAG.AUDIO | FLAG.AUDIO_MUTE : 0) | (video ? FLAG.VIDEO | FLAG.SMALL | FLAG.VIDEO_MUTE : 0) | (sub ? FLAG.AUX | FLAG.AUX_MUTE : 0);
    return { ...info, flag: info.flag & ~hidden };
  }

  infos(): PeerInfo[] {
    return [...this.#byUserId.keys()].map((userId) => this.info(userId)!);
  }

  /** What a member may receive of a visitor: what it asks for, less what was muted here and what it may not send here. */
  allowed(userId: string, wants: SubscriptionWants): SubscriptionWants {
    const visitor = this.#byUserId.get(userId);
    if (!visitor) return wants;
    const { mutes } = visitor;
    return allowedWants({
      audio: wants.audio && !mutes.audio,
      bigVideo: wants.bigVideo && !mutes.video,
      smallVideo: wants.smallVideo && !mutes.video,
      auxVideo: wants.auxVideo && !mutes.sub,
    }, visitor.privileges, PRIVILEGE.ALL);
  }

  get size(): number {
    return this.#byUserId.size;
  }
}
