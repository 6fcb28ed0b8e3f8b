/** Downlink commands: receiving a source user's streams. */
import { z } from 'zod';
import { command, empty, sdp, subscriptionWants, userId } from './fields.js';
import { sdpData } from './publish.js';

export const subscribeData = subscriptionWants.extend({ srcUserId: userId });
export const subscribeAnswerData = z.object({ srcUserId: userId, sdp });
export const unsubscribeData = z.object({ srcUserId: userId });

/** The subscribe group of CommandMap. */
export const subscribeCommands = {
  /** Starts receiving from a source user; the reply carries the server's offer for that downlink. */
  subscribe: command(subscribeData, sdpData),
  /** The client's answer to a subscribe offer. */
  'subscribe-answer': command(subscribeAnswerData, empty),
  /** Changes which streams of a source are forwarded (no renegotiation). */
  'subscribe-change': command(subscribeData, empty),
  unsubscribe: command(unsubscribeData, empty),
};
