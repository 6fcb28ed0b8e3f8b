import { SERVER_CODE } from '@conclave/protocol';
import { describe, expect, it } from 'vitest';
import { CustomMessageLimiter, KeyedRateLimiter } from '../../src/limits/rate-limiter.js';

describe('CustomMessageLimiter (30 messages and 8000 bytes per second per sender)', () => {
  it('allows 30 small messages in a second and refuses the 31st with a code', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    const t = 1_000_000;
    const verdicts = Array.from({ length: 31 }, () => limiter.check('alice', 10, t));
    expect(verdicts.slice(0, 30).every((v) => v.ok)).toBe(true);
    expect(verdicts[30]).toEqual({ ok: false, code: SERVER_CODE.MESSAGE_RATE_LIMITED, message: expect.stringContaining('30 messages') });
  });

  it('refuses by bytes: 8 messages of 1000 bytes pass, the 9th does not', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    const t = 5_000;
    const oks = Array.from({ length: 9 }, () => limiter.check('bob', 1000, t).ok);
    expect(oks).toEqual([true, true, true, true, true, true, true, true, false]);
  });

  it('refuses a single message larger than the byte budget', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    expect(limiter.check('carol', 8001, 0)).toMatchObject({ ok: false, code: SERVER_CODE.MESSAGE_RATE_LIMITED });
  });

  it('refills with time: after a full burst, one message per 1/30 s', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    for (let i = 0; i < 30; i++) limiter.check('dave', 1, 0);
    expect(limiter.check('dave', 1, 0).ok).toBe(false);
    expect(limiter.check('dave', 1, 34).ok).toBe(true); // 34 ms ≥ 1000/30 ms refills one message
    expect(limiter.check('dave', 1, 34).ok).toBe(false);
    expect(limiter.check('dave', 1, 1034).ok).toBe(true);
  });

  it('keeps senders apart', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    for (let i = 0; i < 30; i++) limiter.check('eve', 1, 0);
    expect(limiter.check('eve', 1, 0).ok).toBe(false);
    expect(limiter.check('frank', 1, 0).ok).toBe(true);
  });

  it('a refused message consumes nothing', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    expect(limiter.check('gina', 7000, 0).ok).toBe(true);
    expect(limiter.check('gina', 2000, 0).ok).toBe(false);
    expect(limiter.check('gina', 1000, 0).ok).toBe(true);
  });

  it('forgets senders: by name, and when their budget is whole again', () => {
    const limiter = new CustomMessageLimiter(30, 8000);
    limiter.check('a', 1, 0);
    limiter.check('b', 1, 0);
    limiter.forget('a');
    expect(limiter.size).toBe(1);
    limiter.sweep(10_000);
    expect(limiter.size).toBe(0);
  });
});

describe('KeyedRateLimiter', () => {
  it('stays within maxKeys', () => {
    const limiter = new KeyedRateLimiter({ amount: 1, windowMs: 60_000 }, undefined, 100);
    for (let i = 0; i < 1000; i++) limiter.take(`k${i}`, 0, 0);
    expect(limiter.size).toBeLessThanOrEqual(100);
  });

  it('rejects a budget without a positive amount', () => {
    expect(() => new KeyedRateLimiter({ amount: 0, windowMs: 1000 })).toThrow(RangeError);
  });
});
