/** Downlink commands: receiving a source user's streams. */
import { z } from 'zod';
import { command, empty, subscriptionWants, userId } from './fields.js';
import { downlinkMids } from './downlink.js';

/** `decrypts`: the subscriber decrypts end-to-end encrypted media (CustomEncryption); without it an encrypted source is refused. */
export const subscribeData = subscriptionWants.extend({ srcUserId: userId, decrypts: z.boolean().optional() });
export const unsubscribeData = z.object({ srcUserId: userId });

/** The subscribe group of CommandMap. */
export const subscribeCommands = {
  /** Starts receiving from a source user on the client's one downlink; the reply names its m-lines (downlink.ts). */
  subscribe: command(subscribeData, downlinkMids),
  /** Changes which streams of a source are forwarded (no renegotiation). */
  'subscribe-change': command(subscribeData, empty),
  unsubscribe: command(unsubscribeData, empty),
};
