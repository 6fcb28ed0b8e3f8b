import { SERVER_CODE } from '@conclave/protocol';
import { verifyUserSig } from '@conclave/usersig';
import type { AppConfig } from '../config/config.js';

/** Outcome of checking a join's credentials: ok, or a server code with a clear message. */
export type AuthResult = { ok: true } | { ok: false; code: number; message: string };

const REASON_CODE = {
  malformed: SERVER_CODE.USERSIG_MALFORMED,
  'wrong-key': SERVER_CODE.USERSIG_WRONG_KEY,
  mismatch: SERVER_CODE.USERSIG_MISMATCH,
  expired: SERVER_CODE.USERSIG_EXPIRED,
} as const;

/** Verifies userSigs against the configured apps' secret keys. */
export class Authenticator {
  readonly #apps = new Map<number, AppConfig>();

  constructor(apps: readonly AppConfig[]) {
    for (const app of apps) this.#apps.set(app.sdkAppId, app);
  }

  /** True when the sdkAppId is configured here. */
  hasApp(sdkAppId: number): boolean {
    return this.#apps.has(sdkAppId);
  }

  /** Checks that `userSig` was issued by `sdkAppId`'s key for `userId` and has not expired. */
  async verify(sdkAppId: number, userId: string, userSig: string): Promise<AuthResult> {
    const app = this.#apps.get(sdkAppId);
    if (!app) return { ok: false, code: SERVER_CODE.UNKNOWN_APP, message: `sdkAppId ${sdkAppId} is not configured on this server` };
    const result = await verifyUserSig({ sig: userSig, sdkAppId, userId, secretKey: app.secretKey });
    if (result.ok) return { ok: true };
    return { ok: false, code: REASON_CODE[result.reason], message: `userSig check failed (${result.reason}): ${result.message}` };
  }
}
