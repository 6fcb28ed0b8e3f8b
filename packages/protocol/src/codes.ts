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
  /** This user is banned from this room (by the admin API) until the time in the message. */
  USER_BANNED: -1011,
  /** Too many signalling connections from one IP address; the extra connection is answered and closed. */
  TOO_MANY_CONNECTIONS: -1012,
  /** A sender exceeded the custom / SEI message rate (30 messages and 8000 bytes per second). */
  MESSAGE_RATE_LIMITED: -1013,
  /** The live room has its maximum number of anchors (50); join or switch as audience. */
  TOO_MANY_ANCHORS: -1014,
  /** Cluster: this room lives on another node (or this node is draining); the client schedules again and connects there. */
  WRONG_NODE: -1015,
  /** The client's protocol version is not one this server speaks (the message names both). */
  PROTOCOL_UNSUPPORTED: -1016,
  /** The subscription to change does not exist on the server (subscribe first). */
  SUBSCRIPTION_NOT_FOUND: -1017,
  /** The media engine is not available (restarting) or closed; try again. */
  MEDIA_UNAVAILABLE: -1018,
  /**
   * Cluster: Redis (the room registry) stayed unreachable for the whole wait of a scheduling request, so no new
   * room can be placed now; rooms already running go on. Try again in a few seconds.
   */
  CLUSTER_UNAVAILABLE: -1025,
  /**
   * The server admits joins and reconnections at a bounded rate and this one must wait: the reply's data
   * (JoinThrottled) says when to send the join again (`retryAfterMs`) with the `ticket` that holds its place.
   * Not a refusal: a client of protocol version 3 or later waits and retries (docs/behaviour.md §4).
   */
  JOIN_THROTTLED: -1019,
  /**
   * Too many joins with bad credentials (userSig, privateMapKey, unknown app) from this address
   * (`limits.failedJoinsPerMinute`) or on this connection (`limits.failedJoinsPerConnection`, then the connection
   * is closed): this join was refused without being checked. Try again later.
   */
  TOO_MANY_FAILED_JOINS: -1030,
  /**
   * WHEP / WHIP: the app's WHEP playbacks and WHIP publishes on this node are at `limits.whepSessionsPerApp`, or the
   * node's at `limits.whepSessionsPerNode` (HTTP 503, the message says which); one ending makes room.
   */
  WHEP_QUOTA_EXCEEDED: -1046,
  /** An end-to-end encrypted publish (`publish {encrypted}`) in an app that does not allow it (`allowEncryptedMedia`). */
  ENCRYPTED_MEDIA_REFUSED: -1047,
  /**
   * A media job (CDN relay or mix) was refused: the caller, its app or this node runs as many as it may
   * (limits.jobsPerUser, jobsPerApp, jobsPerNode); one ends, then try again.
   */
  TOO_MANY_JOBS: -1050,
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
  /** The app requires a privateMapKey on join and none was given. */
  PRIVATE_MAP_KEY_REQUIRED: -100024,
  /** The privateMapKey cannot be decoded, was made with another key, or for another app or user. */
  PRIVATE_MAP_KEY_INVALID: -100025,
  /** The privateMapKey (or the privileges in it) expired. */
  PRIVATE_MAP_KEY_EXPIRED: -100026,
  /** The privateMapKey is bound to another room. */
  PRIVATE_MAP_KEY_WRONG_ROOM: -100027,
  /** The privateMapKey lacks the privilege bit for this action (enter the room, send audio, video or sub video). */
  PRIVILEGE_DENIED: -100006,
  /** The app has no package: "need to buy packages" (docs/behaviour.md §8 5401; the SDK shows SERVER_ERROR 5400 / 5401). */
  NEED_PACKAGE: 5401,
  /** The app's account is out of credit: recharge (docs/behaviour.md §8 -100013). */
  OUT_OF_CREDIT: -100013,
} as const);

/**
 * Codes of the server's HTTP endpoints (admin API, log upload, statistics) in the `code` field of a JSON
 * error body; the HTTP status says the class of failure. Validation, size and rate failures reuse the
 * signalling codes above (INVALID_PARAMETER, MESSAGE_TOO_LARGE, RATE_LIMITED, UNKNOWN_APP).
 */
export const HTTP_CODE = Object.freeze({
  /** No admin key given (HTTP 401). */
  ADMIN_KEY_MISSING: -2001,
  /** The admin key is not valid for this sdkAppId, or the app does not exist or has no admin API (HTTP 403). */
  ADMIN_KEY_INVALID: -2002,
  /** No such room, user or route (HTTP 404). */
  NOT_FOUND: -2003,
  /** Wrong HTTP method (HTTP 405). */
  METHOD_NOT_ALLOWED: -2004,
  /** The log upload's body is not valid gzip. */
  BAD_ENCODING: -2005,
  /** The disk holding the server's database (uploaded logs, bans) is full: nothing was stored (HTTP 507). */
  STORAGE_FULL: -2010,
  /** A request body that did not arrive within its time (a few seconds for small bodies; HTTP 408, connection closed). */
  BODY_TIMEOUT: -2020,
  /** A node-to-node request (cluster) whose signature with the cluster secret is missing, stale or wrong (HTTP 403). */
  NODE_SIGNATURE_INVALID: -2021,
} as const);

export type ServerCode = (typeof SERVER_CODE)[keyof typeof SERVER_CODE];
