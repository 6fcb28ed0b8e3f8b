import { describe, expect, it } from 'vitest';
import { JoinAdmission } from '../../src/limits/join-admission.js';

/** A pure unit: the clock is a parameter. */
describe('join admission: a burst at once, then a bounded rate; the rest queue with tickets', () => {
  it('admits the burst, then refuses with waits one slot apart (no two told to come back at the same time)', () => {
    const admission = new JoinAdmission({ perSecond: 100, burst: 20 });
    const verdicts = Array.from({ length: 520 }, () => admission.admit(undefined, 1_000));
    expect(verdicts.slice(0, 20).every((v) => v.ok)).toBe(true);
    const waits = verdicts.slice(20).map((v) => (v.ok ? -1 : v.retryAfterMs));
    expect(waits[0]).toBe(10);
    // 500 refusals, each one 10 ms (1/100 s) after the previous: the returns are as spread as the rate.
    waits.forEach((wait, i) => expect(wait).toBe(10 * (i + 1)));
    expect(admission.counts).toMatchObject({ admitted: 20, throttled: 500, waiting: 500 });
  });

  it('every ticket holder that comes back at its slot is admitted, in order, even with newcomers arriving meanwhile', () => {
    const admission = new JoinAdmission({ perSecond: 10, burst: 1 });
    expect(admission.admit(undefined, 0).ok).toBe(true);
    const waiting = Array.from({ length: 5 }, () => admission.admit(undefined, 0));
    const newcomer = admission.admit(undefined, 250);
    for (const [i, v] of waiting.entries()) {
      if (v.ok || v.ticket === undefined) throw new Error('expected a ticket');
      // Early: told the rest of the wait with the same ticket; on time: admitted.
      expect(admission.admit(v.ticket, v.retryAfterMs - 50)).toEqual({ ok: false, retryAfterMs: 50, ticket: v.ticket });
      expect(admission.admit(v.ticket, v.retryAfterMs)).toEqual({ ok: true });
      expect(v.retryAfterMs).toBe(100 * (i + 1));
    }
    // The newcomer queued behind them all.
    expect(newcomer.ok).toBe(false);
    expect(!newcomer.ok && newcomer.retryAfterMs).toBe(600 - 250);
  });

  it('tickets not used within the grace are forgotten; past maxTickets a wait is told without a ticket', () => {
    const admission = new JoinAdmission({ perSecond: 1, burst: 1, maxTickets: 2, ticketGraceMs: 1_000 });
    admission.admit(undefined, 0);
    const a = admission.admit(undefined, 0);
    admission.admit(undefined, 0);
    const third = admission.admit(undefined, 0);
    expect(third).toEqual({ ok: false, retryAfterMs: 3_000 });
    expect(admission.counts.waiting).toBe(2);
    // Long after its slot (1 s) plus the grace: a's ticket is gone and it queues again.
    const late = admission.admit(!a.ok ? a.ticket : undefined, 10_000);
    expect(late.ok).toBe(true); // the bucket has long refilled: a newcomer would pass too
    expect(admission.counts.waiting).toBe(0);
  });

  it('refuses a configuration without a positive rate', () => {
    expect(() => new JoinAdmission({ perSecond: 0, burst: 1 })).toThrow(RangeError);
  });
});
