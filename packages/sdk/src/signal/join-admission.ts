import { SERVER_CODE, type CommandMap, type JoinThrottled } from '@conclave/protocol';
import { log } from '../log/logger.js';
import { SignalChannelError, SignalReplyError, type SignalChannel } from './signal-channel.js';

/** Added to the server's wait: 0–10 % of it plus 0–100 ms, so clients told the same wait do not return in step. */
const JITTER_SHARE = 0.1;
const JITTER_MS = 100;

/** The wait and ticket of a JOIN_THROTTLED refusal, or undefined for any other error. */
export function throttleOf(error: unknown): JoinThrottled | undefined {
  if (!(error instanceof SignalReplyError) || error.code !== SERVER_CODE.JOIN_THROTTLED) return undefined;
  const data = error.data as Partial<JoinThrottled> | undefined;
  const retryAfterMs = typeof data?.retryAfterMs === 'number' && data.retryAfterMs >= 0 ? data.retryAfterMs : 1000;
  return typeof data?.ticket === 'string' ? { retryAfterMs, ticket: data.ticket } : { retryAfterMs };
}

/**
 * Sends `join` and, while the server answers JOIN_THROTTLED (it admits joins at a bounded rate), waits as told
 * (plus jitter) and sends it again with the ticket that holds its place — on the same connection, all within
 * `timeoutMs`. Being throttled is not a failure: only the join time-out passing is ('join room timeout').
 */
export async function requestJoinAdmitted(signal: SignalChannel, data: CommandMap['join']['data'], timeoutMs: number,
  random: () => number = Math.random): Promise<CommandMap['join']['reply']> {
  const deadline = Date.now() + timeoutMs;
  let request = data;
  for (;;) {
    try {
      return await signal.request('join', request, Math.max(1, deadline - Date.now()));
    } catch (error) {
      const throttle = throttleOf(error);
      if (!throttle) throw error;
      const waitMs = throttle.retryAfterMs * (1 + random() * JITTER_SHARE) + random() * JITTER_MS;
      if (Date.now() + waitMs >= deadline) throw new SignalChannelError(`join timed out after ${timeoutMs} ms while the server was busy`, 'timeout');
      log.info(`the server is busy: joining again in ${Math.round(waitMs)} ms`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (!signal.isOpen) throw new SignalChannelError('signal channel closed', 'closed');
      request = throttle.ticket === undefined ? data : { ...data, admissionTicket: throttle.ticket };
    }
  }
}
