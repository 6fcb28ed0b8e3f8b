/**
 * The client's one downlink (docs/architecture.md "Media path"): a receive-only peer connection the server offers.
 * Each subscription occupies three of its m-lines (audio, main video, auxiliary video); `subscribe`
 * replies with their mids (`downlinkMids`). When m-lines must be added, the server pushes
 * `downlink-offer` before that reply and the client answers with `downlink-answer` (one negotiation at
 * a time, numbered by `seq`). Ended subscriptions leave their m-lines for the next one.
 * `downlink-reset` discards the downlink (it failed): every subscription on it ends and the next
 * `subscribe` starts a new one.
 */
import { z } from 'zod';
import type { DownlinkMids } from '../media.js';
import { command, empty } from './fields.js';

/** A downlink SDP: it grows with the m-lines of every subscription (3 per remote user). */
export const downlinkSdp = z.string().max(256 * 1024);

/** Where one subscription's streams arrive on the downlink: the mids of its three m-lines. */
export const downlinkMids = z.object({ audio: z.string().max(16), video: z.string().max(16), aux: z.string().max(16) }) satisfies z.ZodType<DownlinkMids>;

/** A server offer for the downlink (push `downlink-offer`); the answer names its `seq`. */
export const downlinkOffer = z.object({ seq: z.int().min(1), sdp: downlinkSdp });

export const downlinkAnswerData = z.object({ seq: z.int().min(1), sdp: downlinkSdp });

/** The downlink group of CommandMap. */
export const downlinkCommands = {
  /** The client's answer to the `downlink-offer` push numbered `seq`. */
  'downlink-answer': command(downlinkAnswerData, empty),
  /** Discards the downlink and its subscriptions (it failed); the next subscribe builds a new one. */
  'downlink-reset': command(empty, empty),
};
