import { SERVER_CODE, type JoinThrottled } from '@conclave/protocol';
import type { Logger } from 'pino';
import { EngineError, type EngineRefusal } from '../engine/media-engine.js';

/**
 * The one error a command handler throws to refuse a command: it becomes a reply with its code and
 * message. (A message that fails parsing or validation is an InvalidMessage instead: it is logged as
 * invalid input and counts against the connection's invalid-message cap.)
 */
export class CommandError extends Error {
  /** Data the refusal carries (JOIN_THROTTLED's wait and ticket); most refusals carry none. */
  readonly data: JoinThrottled | undefined;

  constructor(readonly code: number, message: string, options?: { cause?: unknown; data?: JoinThrottled }) {
    super(message, options);
    this.name = 'CommandError';
    this.data = options?.data;
  }
}

/** The reply code of each engine refusal. */
const ENGINE_CODES: Record<EngineRefusal, number> = {
  'not-joined': SERVER_CODE.NOT_JOINED,
  'not-published': SERVER_CODE.STREAM_NOT_EXIST,
  'not-subscribed': SERVER_CODE.SUBSCRIPTION_NOT_FOUND,
  'negotiation-failed': SERVER_CODE.MEDIA_ERROR,
  refused: SERVER_CODE.MEDIA_ERROR,
  unavailable: SERVER_CODE.MEDIA_UNAVAILABLE,
  closed: SERVER_CODE.MEDIA_UNAVAILABLE,
};

/** An engine failure as the command's refusal (a non-engine error is a media error). */
export function engineRefusal(error: unknown, what: string): CommandError {
  if (error instanceof CommandError) return error;
  const reason: EngineRefusal = error instanceof EngineError ? error.reason : 'negotiation-failed';
  const detail = error instanceof Error ? error.message : String(error);
  return new CommandError(ENGINE_CODES[reason], `${what} failed (${reason}): ${detail}`, { cause: error });
}

/** An engine operation's failure as the command's refusal, logged. */
export function engineFailure(ctx: { logger: Logger }, error: unknown, what: string): CommandError {
  const refusal = engineRefusal(error, what);
  ctx.logger.warn({ err: error, code: refusal.code }, refusal.message);
  return refusal;
}

/** Runs an engine operation; its failure becomes the command's refusal (logged). */
export async function engineCall<T>(ctx: { logger: Logger }, what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw engineFailure(ctx, error, what);
  }
}
