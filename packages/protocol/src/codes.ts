/**
 * Reply codes the server sends. 0 is success; negative codes are server-side refusals
 * which the SDK surfaces as SERVER_ERROR (5400) or JOIN_ROOM_FAILED with the code as extraCode.
 */
export const SERVER_CODE = Object.freeze({
  OK: 0,
  /** The message is not valid JSON or not a valid request. */
  BAD_REQUEST: -1000,
  /** The command is unknown. */
  UNKNOWN_COMMAND: -1001,
  /** The command needs a joined session. */
  NOT_JOINED: -1002,
  /** The command's data failed validation. */
  INVALID_PARAMETER: -1003,
  /** The message exceeds the size limit. */
  MESSAGE_TOO_LARGE: -1004,
  /** Too many requests on this connection ("call frequency limit exceeded"). */
  RATE_LIMITED: -1005,
  /** Join sent twice on one connection. */
  ALREADY_JOINED: -1006,
  /** The room is full. */
  ROOM_FULL: -1007,
  /** The role may not do this (an audience publishing in live). */
  PERMISSION_DENIED: -1008,
  /** The source user or stream does not exist (REMOTE_STREAM_NOT_EXIST). */
  STREAM_NOT_EXIST: -1009,
  /** Media negotiation failed on the server. */
  MEDIA_ERROR: -1010,
  /** Internal error. */
  INTERNAL: -1099,
  /** userSig check failed: generic (the original's code). */
  USERSIG_INVALID: -100018,
  /** userSig expired. */
  USERSIG_EXPIRED: -100019,
  /** userSig was made with another key. */
  USERSIG_WRONG_KEY: -100020,
  /** userSig was made for another sdkAppId or userId. */
  USERSIG_MISMATCH: -100021,
  /** userSig cannot be decoded. */
  USERSIG_MALFORMED: -100022,
  /** The sdkAppId is not configured on this server. */
  UNKNOWN_APP: -100023,
  /** The app's package is missing (need to buy). */
  NEED_PACKAGE: -100013,
} as const);

export type ServerCode = (typeof SERVER_CODE)[keyof typeof SERVER_CODE];
