import type { JanusClient } from './janus-client.js';
import { VIDEOROOM } from './janus-publisher.js';

/**
 * VideoRoom settings of every room: private, many publishers, opus and H264 with VP8 as the fallback
 * (each publisher m-line gets the first of these it offers), no bitrate cap (the SDK sets its own),
 * no periodic key frames (they are asked for when needed), transport-wide congestion control.
 */
const ROOM_SETTINGS = {
  is_private: true,
  publishers: 1000,
  audiocodec: 'opus',
  videocodec: 'h264,vp8',
  bitrate: 0,
  fir_freq: 0,
  notify_joining: false,
  require_pvtid: false,
  transport_wide_cc_ext: true,
  audiolevel_ext: false,
  videoorient_ext: true,
  playoutdelay_ext: false,
  permanent: false,
};

interface RoomEntry {
  id: number;
  members: Set<string>;
  created: Promise<void> | undefined;
}

/**
 * Conclave rooms as VideoRoom rooms: a participant is placed in a group (its Conclave room) at join,
 * the VideoRoom room is created when a member first needs it and destroyed when the last member
 * leaves, so publishers are only announced to their own room's publishers.
 */
export class JanusRooms {
  readonly #cleanupFailed: (detail: string) => void;
  readonly #groups = new Map<string, RoomEntry>();
  readonly #groupOf = new Map<string, string>();
  #nextRoomId = 1;
  #nextFeedId = 1;

  /** `cleanupFailed` is told when a room's destroy fails (nobody waits for it). */
  constructor(cleanupFailed: (detail: string) => void) {
    this.#cleanupFailed = cleanupFailed;
  }

  /** Puts a participant in a group (no Janus call). */
  place(participantId: string, groupId: string): void {
    if (this.#groupOf.get(participantId) === groupId) return;
    this.#groupOf.set(participantId, groupId);
    let entry = this.#groups.get(groupId);
    if (!entry) {
      entry = { id: this.#nextRoomId++, members: new Set(), created: undefined };
      this.#groups.set(groupId, entry);
    }
    entry.members.add(participantId);
  }

  /** A fresh publisher id. */
  nextFeedId(): number {
    return this.#nextFeedId++;
  }

  /** The VideoRoom room of a participant's group, created on first use (an unplaced participant gets a group of its own id's ''). */
  async roomOf(client: JanusClient, participantId: string): Promise<number> {
    if (!this.#groupOf.has(participantId)) this.place(participantId, '');
    return this.roomOfGroup(client, this.#groupOf.get(participantId)!);
  }

  /** The VideoRoom room of a group that has members, created on first use (cross-room shares reach into it). */
  async roomOfGroup(client: JanusClient, groupId: string): Promise<number> {
    const entry = this.#groups.get(groupId);
    if (!entry) throw new Error(`no participant is in engine room ${groupId}`);
    entry.created ??= (async () => {
      const handleId = await client.attach(VIDEOROOM, () => undefined);
      try {
        await client.message(handleId, { request: 'create', room: entry.id, ...ROOM_SETTINGS });
      } finally {
        client.detach(handleId);
      }
    })().catch((error: unknown) => {
      entry.created = undefined;
      throw error;
    });
    await entry.created;
    return entry.id;
  }

  /** A participant left; the last one out destroys the room (a failed destroy is told to `cleanupFailed`; never rejects). */
  leave(client: JanusClient | undefined, participantId: string): Promise<void> {
    return this.#leave(client, participantId).catch((error: unknown) => {
      this.#cleanupFailed(`room of ${participantId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async #leave(client: JanusClient | undefined, participantId: string): Promise<void> {
    const groupId = this.#groupOf.get(participantId);
    if (groupId === undefined) return;
    this.#groupOf.delete(participantId);
    const entry = this.#groups.get(groupId);
    if (!entry) return;
    entry.members.delete(participantId);
    if (entry.members.size > 0) return;
    this.#groups.delete(groupId);
    if (!entry.created || !client || client.closed) return;
    // A room whose creation failed has nothing to destroy.
    if (!await entry.created.then(() => true, () => false)) return;
    const handleId = await client.attach(VIDEOROOM, () => undefined);
    try {
      await client.message(handleId, { request: 'destroy', room: entry.id });
    } finally {
      client.detach(handleId);
    }
  }

  /** Janus restarted: no room exists any more; they are created again on next use. */
  clear(): void {
    for (const entry of this.#groups.values()) entry.created = undefined;
  }
}
