import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from './backoff.js';

describe('reconnection back-off (docs/behaviour.md §4)', () => {
  it('follows the Fibonacci series in seconds, capped at 30 s once the attempt number exceeds 8', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(reconnectDelayMs)).toEqual([1000, 1000, 2000, 3000, 5000, 8000, 13000, 21000]);
    expect(reconnectDelayMs(9)).toBe(30_000);
    expect(reconnectDelayMs(30)).toBe(30_000);
  });
});
