/** Every push the server sends, by name: the schemas PushMap (messages.ts) derives from. */
import { z } from 'zod';
import { downlinkOffer } from './commands/downlink.js';
import { empty, peerInfo } from './commands/fields.js';
import { transcriberPushes } from './commands/transcriber.js';

/** Why a user left (docs/behaviour.md §3 leave reasons). */
export const leaveReason = z.enum(['normal', 'timeout', 'kick', 'role change']);
/** Why the server removed this client (docs/behaviour.md §3 banned reasons). */
export const bannedReason = z.enum(['banned', 'kick', 'user_time_out', 'room_disband']);

export const PUSH_SCHEMAS = {
  'peer-join': peerInfo,
  'peer-leave': z.object({ userId: z.string(), tinyId: z.string(), reason: leaveReason }),
  /**
   * How many audience members a room has now (Conclave only): audiences are hidden from the user lists
   * (docs/behaviour.md §3.5), so this is how apps count them. Sent on a change, at most once a second
   * (LIMITS.AUDIENCE_COUNT_INTERVAL_MS), to everyone in the room; an old client ignores it.
   */
  'audience-count': z.object({ count: z.int().min(0) }),
  /** Publish / mute flags of some users changed. */
  'publish-list': z.object({ userList: z.array(peerInfo) }),
  banned: z.object({ reason: bannedReason, message: z.string().optional() }),
  /** The server is going away: reconnect. */
  'server-shutdown': empty,
  /** A server offer for the client's downlink (commands/downlink.ts). */
  'downlink-offer': downlinkOffer,
  /**
   * The server closed this client's downlink (it failed there, or the media engine restarted) with every
   * subscription on it: the client discards its side and subscribes again (protocol 2).
   */
  'downlink-closed': z.object({ reason: z.enum(['failed', 'engine-restarted']), message: z.string().max(1024) }),
  /** Live transcription: a robot's sentences and its start / stop, to every user of the room. */
  ...transcriberPushes,
} satisfies Record<string, z.ZodType>;

/** Every push name. */
export const PUSHES = Object.freeze(Object.keys(PUSH_SCHEMAS)) as readonly (keyof typeof PUSH_SCHEMAS)[];
