import { JOIN_THROTTLE_VERSION, SERVER_CODE, type JoinThrottled } from '@conclave/protocol';
import { isCredentialFailure, type Authenticator } from '../auth/authenticator.js';
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
  /**
   * The connection's own place in the queue: the ticket its last JOIN_THROTTLED answer handed out, used when the
   * join brings none, so a connection that joins again and again without it holds one place, not one per join.
   */
  held?: { ticket: string | undefined };
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
  const verdict = admission.admit(connection.ticket ?? connection.held?.ticket);
  if (connection.held) connection.held.ticket = verdict.ok ? undefined : verdict.ticket;
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

/** The WebSocket close code of a connection that sent too many joins with bad credentials. */
export const FAILED_JOINS_CLOSE_CODE = 4030;

type JoinCredentialsData = Parameters<Authenticator['verifyJoin']>[0];

/**
 * Checks a connection's joins' credentials (the userSig, the privateMapKey, the app's billing), before the join is
 * admitted at the node's rate (docs/behaviour.md §4.2), so joins with bad credentials book no admission slot and
 * cannot delay anyone's join. Checking is bounded (a capped userSig, one HMAC, a capped privateMapKey) and so are
 * failures: past limits.failedJoinsPerConnection on this connection the next join is refused and the connection
 * closed; past limits.failedJoinsPerMinute from the address, its joins are refused unchecked until the budget
 * refills. Both refusals are TOO_MANY_FAILED_JOINS.
 */
export class JoinCredentials {
  readonly #auth: Authenticator;
  readonly #perConnection: number;
  readonly #address: string;
  readonly #close: (code: number, reason: string) => void;
  #failures = 0;

  constructor(auth: Authenticator, perConnection: number, address: string, close: (code: number, reason: string) => void) {
    this.#auth = auth;
    this.#perConnection = perConnection;
    this.#address = address;
    this.#close = close;
  }

  /** The session's privileges, or throws the refusal's CommandError. */
  async check(data: JoinCredentialsData): Promise<number> {
    if (this.#failures >= this.#perConnection) {
      this.#close(FAILED_JOINS_CLOSE_CODE, 'too many failed joins');
      throw new CommandError(SERVER_CODE.TOO_MANY_FAILED_JOINS, 'too many failed joins on this connection');
    }
    if (!this.#auth.limits.mayTryJoin(this.#address)) {
      throw new CommandError(SERVER_CODE.TOO_MANY_FAILED_JOINS, 'too many failed joins from this address: try again later');
    }
    const auth = await this.#auth.verifyJoin(data);
    if (auth.ok) return auth.privileges;
    if (isCredentialFailure(auth.code)) {
      this.#failures++;
      this.#auth.limits.noteFailedJoin(this.#address);
    }
    throw new CommandError(auth.code, auth.message);
  }
}
