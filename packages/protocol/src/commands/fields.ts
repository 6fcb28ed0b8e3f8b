/**
 * Field schemas shared by several commands and pushes: one rule per kind of value, so a user id or an
 * SDP is checked the same way wherever it travels.
 */
import { z } from 'zod';
import type { SubscriptionWants } from '../media.js';
import { LIMITS } from '../limits.js';

/** A user id as it travels (the SDK limits its own to 32 characters; the server is lenient up to 4×). */
export const userId = z.string().min(1).max(LIMITS.MAX_USER_ID_LENGTH * 4);
/** An SDP offer or answer. */
export const sdp = z.string().max(32 * 1024);
/** Wire role code: anchor 20, audience 21. */
export const roleCode = z.literal([20, 21]);
/** Wire scene code: rtc 1, live 2. */
export const sceneCode = z.literal([1, 2]);
/** A privateMapKey (docs/behaviour.md §5): the room-entry and publish privileges the app grants. */
export const privateMapKey = z.string().max(4096);
/** A data-less request or reply. */
export const empty = z.object({});

/** A remote user as the server describes it. */
export const peerInfo = z.object({
  userId: z.string(),
  tinyId: z.string(),
  role: roleCode,
  /** Publish flag bitmask (see FLAG). */
  flag: z.int().meta({ description: 'Publish flag bitmask (FLAG).' }),
});

/** Which of a source user's streams a subscriber wants. */
export const subscriptionWants = z.object({
  audio: z.boolean(),
  bigVideo: z.boolean(),
  smallVideo: z.boolean(),
  auxVideo: z.boolean(),
}) satisfies z.ZodType<SubscriptionWants>;

/** An ICE server as the schedule and the join reply hand it out (same shape as RTCIceServer). */
export const iceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});

/** A command's two schemas: what the client sends as `data`, and what the server replies with as `data`. */
export interface CommandSchema<D extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  data: D;
  reply: R;
}

/** Pairs a command's request and reply schemas (keeps both types for CommandMap). */
export function command<D extends z.ZodType, R extends z.ZodType>(data: D, reply: R): CommandSchema<D, R> {
  return { data, reply };
}
