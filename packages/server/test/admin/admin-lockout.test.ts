import type { IncomingMessage } from 'node:http';
import { HTTP_CODE, SERVER_CODE } from '@conclave/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Authenticator } from '../../src/auth/authenticator.js';
import { HttpError } from '../../src/http/respond.js';
import type { RouteInput } from '../../src/http/router.js';
import { AdminApi } from '../../src/admin/admin-api.js';
import type { AdminDeps } from '../../src/admin/admin-deps.js';

/*
 * Issue 38, Low: the admin API's lockouts are kept per (address, app) in a bounded map that forgets expired and
 * then the oldest locks, never all of them: filling it with other addresses' locks does not lift a real one.
 * The key check runs alone here (it needs nothing but the apps), called as the router calls it.
 */

const APP = { sdkAppId: 1400380801, secretKey: 'lockout-test-user-sig-key-0123456', adminKey: 'lockout-test-admin-key-0123456789' };

describe('38.low admin lockouts are evicted oldest first, never cleared wholesale', () => {
  const api = new AdminApi({ auth: new Authenticator([APP]) } as Pick<AdminDeps, 'auth'> as AdminDeps);
  const check = api.bindings().getApp.before;
  /** The status and code the key check answers `address` with (200: the key was taken). */
  const attempt = (address: string, key: string): [number, number] => {
    const input = { address, rawParams: { sdkAppId: String(APP.sdkAppId) }, req: { headers: { authorization: `Bearer ${key}` } } as IncomingMessage } as unknown as RouteInput<'getApp'>;
    try {
      check?.(input);
      return [200, 0];
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return [error.status, error.code];
    }
  };
  const lockOut = (address: string) => {
    for (let i = 0; i < 21; i++) attempt(address, 'a-wrong-admin-key-0123456789');
  };

  it('38.low a locked-out address stays locked while 10,001 other addresses get locked out', () => {
    // 210,000 refusals: without stack traces each costs a few microseconds.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    onTestFinished(() => { Error.stackTraceLimit = stackTraceLimit; });
    lockOut('203.0.113.1');
    expect(attempt('203.0.113.1', APP.adminKey)).toEqual([429, SERVER_CODE.RATE_LIMITED]);
    for (let i = 0; i < 10_001; i++) lockOut(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(attempt('203.0.113.1', APP.adminKey)).toEqual([429, SERVER_CODE.RATE_LIMITED]);
    // Addresses that never failed are untouched.
    expect(attempt('203.0.113.2', APP.adminKey)).toEqual([200, 0]);
    expect(attempt('203.0.113.2', 'a-wrong-admin-key-0123456789')).toEqual([403, HTTP_CODE.ADMIN_KEY_INVALID]);
  }, 30_000);
});
