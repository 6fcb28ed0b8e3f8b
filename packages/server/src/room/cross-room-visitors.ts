import { FLAG, type PeerInfo, type SubscriptionWants } from '@conclave/protocol';
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

  add(participant: Participant, fromRoomKey: string): void {
    this.#byUserId.set(participant.userId, { participant, fromRoomKey, mutes: { audio: false, video: false, sub: false } });
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

  /** How the room's members see a visitor: its flags without what was muted here. */
  info(userId: string): PeerInfo | undefined {
    const visitor = this.#byUserId.get(userId);
    if (!visitor) return undefined;
    const info = visitor.participant.info();
    const { audio, video, sub } = visitor.mutes;
    const hidden = (audio ? FLAG.AUDIO | FLAG.AUDIO_MUTE : 0) | (video ? FLAG.VIDEO | FLAG.SMALL | FLAG.VIDEO_MUTE : 0) | (sub ? FLAG.AUX | FLAG.AUX_MUTE : 0);
    return { ...info, flag: info.flag & ~hidden };
  }

  infos(): PeerInfo[] {
    return [...this.#byUserId.keys()].map((userId) => this.info(userId)!);
  }

  /** What a member may receive of a visitor: what it asks for, less what was muted here. */
  allowed(userId: string, wants: SubscriptionWants): SubscriptionWants {
    const mutes = this.#byUserId.get(userId)?.mutes;
    if (!mutes) return wants;
    return {
      audio: wants.audio && !mutes.audio,
      bigVideo: wants.bigVideo && !mutes.video,
      smallVideo: wants.smallVideo && !mutes.video,
      auxVideo: wants.auxVideo && !mutes.sub,
    };
  }

  get size(): number {
    return this.#byUserId.size;
  }
}
