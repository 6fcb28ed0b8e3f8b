import { createHash, timingSafeEqual } from 'node:crypto';
import { SERVER_CODE } from '@conclave/protocol';
import { PRIVILEGE, hasPrivilege, verifyPrivateMapKey, verifyUserSig, type VerifyFailure } from '@conclave/usersig';
import type { AppConfig } from '../config/config.js';
import { CredentialLimits, type CredentialLimitsOptions } from '../limits/credential-limits.js';
import { mediaTokenKey } from './media-token-key.js';

/** Outcome of a check: ok, or a server code with a clear message. */
export type AuthFailure = { ok: false; code: number; message: string };
export type AuthResult = { ok: true } | AuthFailure;
/** Outcome of a join check: the privileges the session gets (PRIVILEGE bits; all of them without a privateMapKey). */
export type JoinAuthResult = { ok: true; privileges: number } | AuthFailure;

/** The room a join or role switch is about. */
export interface RoomTarget {
  /** Integer room id (as text) or the string room id. */
  roomId: string;
  useStringRoomId: boolean;
}

const REASON_CODE = {
  malformed: SERVER_CODE.USERSIG_MALFORMED,
  'wrong-key': SERVER_CODE.USERSIG_WRONG_KEY,
  mismatch: SERVER_CODE.USERSIG_MISMATCH,
  expired: SERVER_CODE.USERSIG_EXPIRED,
  // A privateMapKey offered as the userSig: the original's generic userSig refusal (docs/behaviour.md §6).
  'not-a-usersig': SERVER_CODE.USERSIG_INVALID,
} as const satisfies Record<VerifyFailure, number>;

const KEY_REASON_CODE = {
  malformed: SERVER_CODE.PRIVATE_MAP_KEY_INVALID,
  'wrong-key': SERVER_CODE.PRIVATE_MAP_KEY_INVALID,
  mismatch: SERVER_CODE.PRIVATE_MAP_KEY_INVALID,
  expired: SERVER_CODE.PRIVATE_MAP_KEY_EXPIRED,
  'not-a-usersig': SERVER_CODE.PRIVATE_MAP_KEY_INVALID,
} as const satisfies Record<VerifyFailure, number>;

/** The refusals that say a credential is bad (what the failed-join limits count), not that a good one lacks something. */
const CREDENTIAL_FAILURES: ReadonlySet<number> = new Set([...Object.values(REASON_CODE), ...Object.values(KEY_REASON_CODE), SERVER_CODE.UNKNOWN_APP, SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM]);

/** True when a refusal's code says the credential was bad (forged, expired, foreign, malformed, for another room). */
export function isCredentialFailure(code: number): boolean {
  return CREDENTIAL_FAILURES.has(code);
}

/** The limits the authenticator applies; the configuration's defaults when not given. */
const DEFAULT_CHECK_LIMITS: CredentialLimitsOptions = { credentialChecksPerMinute: 600, failedJoinsPerMinute: 30 };

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Verifies credentials against the configured apps: userSigs, privateMapKeys (bound room and privilege
 * bits), the app's billing state, and admin keys.
 */
export class Authenticator {
  readonly #apps = new Map<number, AppConfig>();
  /** Each app's media-token key (derived from its secret once). */
  readonly #mediaKeys = new Map<number, string>();
  /** Per-address budgets of credential checks (scheduling, AI-denoise authorisation, media tokens, failed joins). */
  readonly limits: CredentialLimits;

  constructor(apps: readonly AppConfig[], limits: CredentialLimitsOptions = DEFAULT_CHECK_LIMITS) {
    for (const app of apps) {
      this.#apps.set(app.sdkAppId, app);
      this.#mediaKeys.set(app.sdkAppId, mediaTokenKey(app.secretKey));
    }
    this.limits = new CredentialLimits(limits);
  }

  /** True when the sdkAppId is configured here. */
  hasApp(sdkAppId: number): boolean {
    return this.#apps.has(sdkAppId);
  }

  /** The app's configuration, if configured. */
  app(sdkAppId: number): AppConfig | undefined {
    return this.#apps.get(sdkAppId);
  }

  /** Checks that `userSig` was issued by `sdkAppId`'s key for `userId` and has not expired. */
  async verify(sdkAppId: number, userId: string, userSig: string): Promise<AuthResult> {
    const app = this.#apps.get(sdkAppId);
    if (!app) return { ok: false, code: SERVER_CODE.UNKNOWN_APP, message: `sdkAppId ${sdkAppId} is not configured on this server` };
    const result = await verifyUserSig({ sig: userSig, sdkAppId, userId, secretKey: app.secretKey });
    if (result.ok) return { ok: true };
    return { ok: false, code: REASON_CODE[result.reason], message: `userSig check failed (${result.reason}): ${result.message}` };
  }

  /** The app's billing refusal, if any (docs/behaviour.md §8: 5401 need to buy packages, -100013 out of credit). */
  billing(sdkAppId: number): AuthResult {
    const billing = this.#apps.get(sdkAppId)?.billing ?? 'active';
    if (billing === 'no-package') return { ok: false, code: SERVER_CODE.NEED_PACKAGE, message: 'need to buy packages' };
    if (billing === 'out-of-credit') return { ok: false, code: SERVER_CODE.OUT_OF_CREDIT, message: 'account out of credit, please recharge' };
    return { ok: true };
  }

  /**
   * Checks a join: the userSig, the app's billing state, and the privateMapKey when the app requires one
   * or one is given (made by this app's key for this user, not expired, bound to this room, with the
   * enter-room bit). Resolves to the privileges of the session.
   */
  async verifyJoin(join: { sdkAppId: number; userId: string; userSig: string; privateMapKey?: string } & RoomTarget): Promise<JoinAuthResult> {
    const sig = await this.verify(join.sdkAppId, join.userId, join.userSig);
    if (!sig.ok) return sig;
    const billing = this.billing(join.sdkAppId);
    if (!billing.ok) return billing;
    const app = this.#apps.get(join.sdkAppId)!;
    if (join.privateMapKey === undefined || join.privateMapKey === '') {
      if (app.requirePrivateMapKey) {
        return { ok: false, code: SERVER_CODE.PRIVATE_MAP_KEY_REQUIRED, message: `sdkAppId ${app.sdkAppId} requires a privateMapKey to enter a room` };
      }
      return { ok: true, privileges: PRIVILEGE.ALL };
    }
    const key = await this.verifyPrivateMapKey(join.sdkAppId, join.userId, join.privateMapKey, join);
    if (!key.ok) return key;
    if (!hasPrivilege(key.privileges, PRIVILEGE.ENTER_ROOM)) {
      return { ok: false, code: SERVER_CODE.PRIVILEGE_DENIED, message: 'privateMapKey does not grant entering the room' };
    }
    return key;
  }

  /**
   * Checks a privateMapKey for a room: made by the app's key for the user, not expired (neither the sig nor
   * its privileges), and bound to this room. Resolves to its privilege bits.
   */
  async verifyPrivateMapKey(sdkAppId: number, userId: string, key: string, room: RoomTarget): Promise<JoinAuthResult> {
    const app = this.#apps.get(sdkAppId);
    if (!app) return { ok: false, code: SERVER_CODE.UNKNOWN_APP, message: `sdkAppId ${sdkAppId} is not configured on this server` };
    const result = await checkPrivateMapKey(app.secretKey, sdkAppId, userId, key, room);
    return result.ok ? result : result.failure;
  }

  /**
   * Checks a WHEP or WHIP bearer token for a room: a media token this server minted (mintMediaToken: a
   * privateMapKey signed with the app's media-token key, so it is no userSig and no privateMapKey of the app), or
   * a privateMapKey made with the app's secret by any TLSSigAPIv2 tool. Resolves to its privilege bits.
   */
  async verifyMediaToken(sdkAppId: number, userId: string, token: string, room: RoomTarget): Promise<JoinAuthResult> {
    const app = this.#apps.get(sdkAppId);
    const mediaKey = this.#mediaKeys.get(sdkAppId);
    if (!app || mediaKey === undefined) return { ok: false, code: SERVER_CODE.UNKNOWN_APP, message: `sdkAppId ${sdkAppId} is not configured on this server` };
    const minted = await checkPrivateMapKey(mediaKey, sdkAppId, userId, token, room);
    if (minted.ok || minted.reason !== 'wrong-key') return minted.ok ? minted : minted.failure;
    const key = await checkPrivateMapKey(app.secretKey, sdkAppId, userId, token, room);
    return key.ok ? key : key.failure;
  }

  /** The app whose admin key this is, when `key` is `sdkAppId`'s admin key (compared in constant time). */
  adminApp(sdkAppId: number, key: string): AppConfig | undefined {
    const app = this.#apps.get(sdkAppId);
    // Hash both sides so the comparison takes the same time whatever the lengths, and compare even when
    // the app does not exist so that timing tells nothing about which app ids are configured.
    const expected = digest(app?.adminKey ?? '\u0000no-admin-key');
    const matches = timingSafeEqual(expected, digest(key));
    return app?.adminKey !== undefined && matches ? app : undefined;
  }
}

type KeyCheck = { ok: true; privileges: number } | { ok: false; reason: VerifyFailure | 'wrong-room'; failure: AuthFailure };

/** A privateMapKey made with `secretKey` for the user, unexpired and bound to the room: its privilege bits. */
async function checkPrivateMapKey(secretKey: string, sdkAppId: number, userId: string, key: string, room: RoomTarget): Promise<KeyCheck> {
  const result = await verifyPrivateMapKey({ key, sdkAppId, userId, secretKey });
  if (!result.ok) {
    return { ok: false, reason: result.reason, failure: { ok: false, code: KEY_REASON_CODE[result.reason], message: `privateMapKey check failed (${result.reason}): ${result.message}` } };
  }
  const { info } = result;
  const bound = info.version === 1 ? { isString: true, id: info.strRoomId } : { isString: false, id: String(info.roomId) };
  const wanted = room.useStringRoomId ? { isString: true, id: room.roomId } : { isString: false, id: String(Number(room.roomId)) };
  if (bound.isString !== wanted.isString || bound.id !== wanted.id) {
    const describe = (r: { isString: boolean; id: string }) => `${r.isString ? 'strRoomId' : 'roomId'} '${r.id}'`;
    return { ok: false, reason: 'wrong-room', failure: { ok: false, code: SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM, message: `privateMapKey is for ${describe(bound)}, not ${describe(wanted)}` } };
  }
  return { ok: true, privileges: info.privilegeMap };
}
