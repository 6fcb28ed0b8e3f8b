/**
 * @conclave/usersig: generate and verify userSigs and privateMapKeys in the TLSSigAPIv2 format
 * (compatible with tencentyun/tls-sig-api-v2-*). Runs in Node 20+ and in browsers: it uses only WebCrypto,
 * fflate, `btoa`/`atob` and `TextEncoder`.
 */
export { UserSigError, type VerifyFailure } from './errors.js';
export { DEFAULT_EXPIRE, genUserSig, type GenUserSigOptions } from './usersig.js';
export { decodeUserSig, MAX_INFLATED_BYTES, MAX_USERSIG_LENGTH, type SigDocument } from './document.js';
export {
  buildPrivateMapKeyUserBuf,
  genPrivateMapKey,
  genPrivateMapKeyWithStringRoomID,
  hasPrivilege,
  parsePrivateMapKeyUserBuf,
  PRIVILEGE,
  type GenPrivateMapKeyBaseOptions,
  type GenPrivateMapKeyOptions,
  type GenPrivateMapKeyWithStringRoomIDOptions,
  type PrivateMapKeyInfo,
  type PrivilegeName,
} from './private-map-key.js';
export {
  verifyPrivateMapKey,
  verifyUserSig,
  type PrivateMapKeyVerifyResult,
  type PrivateMapKeyVerifySuccess,
  type VerifyFailureResult,
  type VerifyPrivateMapKeyOptions,
  type VerifyResult,
  type VerifySuccess,
  type VerifyUserSigOptions,
} from './verify.js';
