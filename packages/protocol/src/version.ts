/**
 * The wire protocol's version (docs/architecture.md "Wire protocol versions"). The SDK sends it on join
 * (`protocolVersion`); the server accepts SUPPORTED_PROTOCOL_VERSIONS and refuses others with
 * SERVER_CODE.PROTOCOL_UNSUPPORTED. A join without the field is version 1, the wire before versions existed.
 *
 * 1: the unversioned wire. 2: engine refusals answered with their own codes, the `downlink-closed` push.
 * 3: a join may be answered JOIN_THROTTLED with `retryAfterMs` and an admission ticket (the client waits and
 * sends the join again with `admissionTicket`); older clients are held or disconnected instead.
 */
export const PROTOCOL_VERSION = 3;

/** The first version whose clients understand JOIN_THROTTLED (older ones would take it for a final refusal). */
export const JOIN_THROTTLE_VERSION = 3;

/** The versions this build of the server accepts (inclusive). */
export const SUPPORTED_PROTOCOL_VERSIONS = Object.freeze({ min: 1, max: PROTOCOL_VERSION });
