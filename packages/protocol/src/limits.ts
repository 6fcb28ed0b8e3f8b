/** Limits and timings shared by both ends (docs/behaviour.md §9). */
export const LIMITS = Object.freeze({
  /** Largest signalling message the server accepts, in bytes. */
  MAX_MESSAGE_BYTES: 64 * 1024,
  /** Client ping interval. */
  PING_INTERVAL_MS: 2_000,
  /** A connection silent for this long is considered gone. */
  PING_TIMEOUT_MS: 18_000,
  /** WebSocket connect time-out. */
  WS_CONNECT_TIMEOUT_MS: 10_000,
  /** Signalling response time-out. */
  RESPONSE_TIMEOUT_MS: 5_000,
  /** Default join time-out. */
  JOIN_TIMEOUT_MS: 5_000,
  MIN_ROOM_ID: 1,
  MAX_ROOM_ID: 4_294_967_294,
  MAX_STR_ROOM_ID_LENGTH: 64,
  MAX_USER_ID_LENGTH: 32,
  /**
   * How long the server keeps the session of a user whose connection dropped (without leaving)
   * so that a reconnecting client resumes it; after that the others get peer-leave.
   */
  SESSION_GRACE_MS: 10_000,
  /** Reconnection attempts of the signalling channel before giving up. */
  RECONNECT_ATTEMPTS: 30,
  /** Participants in an rtc-scene room. */
  MAX_USERS_RTC: 300,
  /** Anchors in a live-scene room. */
  MAX_ANCHORS_LIVE: 50,
  /** Custom and SEI messages one sender may send per second (docs/behaviour.md §7). */
  MAX_CUSTOM_MESSAGES_PER_SECOND: 30,
  /** Bytes of custom and SEI messages one sender may send per second (docs/behaviour.md §7). */
  MAX_CUSTOM_MESSAGE_BYTES_PER_SECOND: 8000,
  /** Largest custom or SEI message payload (docs/behaviour.md §9). */
  MAX_CUSTOM_MESSAGE_BYTES: 1000,
  /** A room's `audience-count` push goes out at most this often (docs/behaviour.md §3.5). */
  AUDIENCE_COUNT_INTERVAL_MS: 1_000,
} as const);
