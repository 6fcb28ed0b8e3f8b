import { JOIN_THROTTLE_VERSION, SERVER_CODE, type JoinThrottled } from '@conclave/protocol';
import type { JoinAdmission } from '../limits/join-admission.js';
import { CommandError } from './command-error.js';

/**
 * How long a client older than JOIN_THROTTLE_VERSION is held for its slot: under its 5 s join time-out, since
 * it would take JOIN_THROTTLED for a final refusal.
 */
const LEGACY_HOLD_MS = 3_000;

/** What admitting a join needs from its connection. */
export interface AdmissionConnection {
  /** The client's protocol version (1 when it sent none). */
  protocolVersion: number;
  /** The ticket its earlier JOIN_THROTTLED answer handed out. */
  ticket: string | undefined;
  /** Closes the connection (an old client then retries as after any drop). */
  close(code: number, reason: string): void;
}

/**
 * Admits one join at the node's bounded rate (docs/behaviour.md §4), or refuses it with JOIN_THROTTLED and
 * the wait and ticket in the reply's data. A client older than protocol version 3 does not know that answer:
 * it is held until its slot when that is near, else its connection is closed (1013, try again later) so it
 * retries as after a drop instead of giving up.
 */
export async function admitJoin(admission: JoinAdmission, connection: AdmissionConnection): Promise<void> {
  const verdict = admission.admit(connection.ticket);
  if (verdict.ok) return;
  const data: JoinThrottled = verdict.ticket === undefined ? { retryAfterMs: verdict.retryAfterMs } : { retryAfterMs: verdict.retryAfterMs, ticket: verdict.ticket };
  const refusal = new CommandError(SERVER_CODE.JOIN_THROTTLED, `server busy: send the join again in ${verdict.retryAfterMs} ms`, { data });
  if (connection.protocolVersion >= JOIN_THROTTLE_VERSION) throw refusal;
  if (verdict.ticket !== undefined && verdict.retryAfterMs <= LEGACY_HOLD_MS) {
    await new Promise((resolve) => setTimeout(resolve, verdict.retryAfterMs));
    if (admission.admit(verdict.ticket).ok) return;
  }
  connection.close(1013, 'server busy, try again later');
  throw refusal;
}
