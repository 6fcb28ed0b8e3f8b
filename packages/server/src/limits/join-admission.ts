import { randomBytes } from 'node:crypto';

/** The verdict on one join: admitted now, or when to come back (with the ticket holding its place). */
export type AdmissionVerdict =
  | { ok: true }
  | { ok: false; retryAfterMs: number; ticket?: string };

export interface JoinAdmissionOptions {
  /** Joins admitted per second once the burst is spent. */
  perSecond: number;
  /** Joins admitted at once from idle. */
  burst: number;
  /** Places held in the queue at most; past it a join is told to wait without a ticket (100,000). */
  maxTickets?: number;
  /** How late a ticket holder may come back and keep its place (30 s). */
  ticketGraceMs?: number;
}

interface Ticket {
  slotAt: number;
  expiresAt: number;
}

/**
 * Admits joins (and the joins of reconnecting clients) at a bounded rate, so a storm of joins — a node
 * restarted under thousands of clients — is spread out instead of refused or let through all at once.
 *
 * A generic cell-rate algorithm: `burst` joins pass at once, then one every 1/`perSecond` s. A join that does
 * not fit is given the next free slot in a queue: its wait (`retryAfterMs`) and a ticket. Coming back with the
 * ticket at (or after) its slot admits it without taking another slot, so every client that retries as told is
 * admitted, in order, and the returns are as spread out as the slots. Each refusal books its slot, so later
 * arrivals queue behind the waiting ones instead of taking their places.
 */
export class JoinAdmission {
  readonly #intervalMs: number;
  readonly #toleranceMs: number;
  readonly #maxTickets: number;
  readonly #graceMs: number;
  /** The theoretical arrival time of the next join: past it, the bucket has room. */
  #tat = 0;
  readonly #tickets = new Map<string, Ticket>();
  #admitted = 0;
  #throttled = 0;

  constructor(options: JoinAdmissionOptions) {
    if (!(options.perSecond > 0) || !(options.burst >= 1)) throw new RangeError('join admission needs a positive rate and a burst of at least 1');
    this.#intervalMs = 1000 / options.perSecond;
    this.#toleranceMs = (Math.floor(options.burst) - 1) * this.#intervalMs;
    this.#maxTickets = options.maxTickets ?? 100_000;
    this.#graceMs = options.ticketGraceMs ?? 30_000;
  }

  /** Decides on one join; `ticket` is the one an earlier refusal handed out, if any. */
  admit(ticket?: string, now = Date.now()): AdmissionVerdict {
    this.#expire(now);
    const held = ticket === undefined ? undefined : this.#tickets.get(ticket);
    if (held && ticket !== undefined) {
      // Its slot was booked when it was refused: early, it waits on; at or after it, it is in.
      if (now < held.slotAt) return this.#refused(Math.ceil(held.slotAt - now), ticket);
      this.#tickets.delete(ticket);
      this.#admitted++;
      return { ok: true };
    }
    const tat = Math.max(this.#tat, now);
    if (tat - now <= this.#toleranceMs) {
      this.#tat = tat + this.#intervalMs;
      this.#admitted++;
      return { ok: true };
    }
    const slotAt = tat - this.#toleranceMs;
    if (this.#tickets.size >= this.#maxTickets) return this.#refused(Math.ceil(slotAt - now));
    this.#tat = tat + this.#intervalMs;
    const id = randomBytes(12).toString('base64url');
    this.#tickets.set(id, { slotAt, expiresAt: slotAt + this.#graceMs });
    return this.#refused(Math.ceil(slotAt - now), id);
  }

  /** Joins admitted and refusals answered since the start (for metrics and tests). */
  get counts(): { admitted: number; throttled: number; waiting: number } {
    return { admitted: this.#admitted, throttled: this.#throttled, waiting: this.#tickets.size };
  }

  #refused(retryAfterMs: number, ticket?: string): AdmissionVerdict {
    this.#throttled++;
    return ticket === undefined ? { ok: false, retryAfterMs } : { ok: false, retryAfterMs, ticket };
  }

  /** Forgets the tickets whose holders never came back (they were issued in slot order, so the oldest are first). */
  #expire(now: number): void {
    for (const [id, held] of this.#tickets) {
      if (held.expiresAt > now) break;
      this.#tickets.delete(id);
    }
  }
}
