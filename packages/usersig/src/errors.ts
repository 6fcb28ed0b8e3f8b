/**
 * Why a userSig or privateMapKey was rejected.
 *
 * - `malformed`: the string cannot be decoded (bad base64, bad zlib, bad JSON, missing or mistyped fields).
 * - `mismatch`: it decodes fine but was made for another sdkAppId or userId.
 * - `wrong-key`: its signature was not made with the given secret key (or the content was tampered with).
 * - `expired`: it was valid, but its lifetime is over.
 * - `not-a-usersig`: it is a privateMapKey (its userbuf grants a room and privileges), offered as a userSig.
 *   TRTC uses the two together, a userSig to enter any room and a privateMapKey to bound what the user may do in
 *   one; taking a privateMapKey as a userSig would let it enter every room with every privilege.
 */
export type VerifyFailure = 'malformed' | 'wrong-key' | 'mismatch' | 'expired' | 'not-a-usersig';

/**
 * Thrown by the decoding helpers ({@link decodeUserSig}, {@link parsePrivateMapKeyUserBuf}) when their input
 * cannot be decoded. The verify functions never throw this: they return it as a failed result instead.
 */
export class UserSigError extends Error {
  /** The category of the failure; the same values a failed verify result carries. */
  readonly reason: VerifyFailure;

  /**
   * @param reason - the failure category
   * @param message - a human-readable explanation
   */
  constructor(reason: VerifyFailure, message: string) {
    super(message);
    this.name = 'UserSigError';
    this.reason = reason;
  }
}
