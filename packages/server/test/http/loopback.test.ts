import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/http/ops.js';

describe('isLoopback (who may read the dev app key)', () => {
  it('accepts loopback clients only', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('192.0.2.7')).toBe(false);
    expect(isLoopback('::ffff:10.0.0.2')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });
});
