/**
 * @conclave/protocol: the single source of wire types for the Conclave SDK and server.
 * Runtime: a few constants and helpers only; the zod schemas the types are inferred from are in
 * `@conclave/protocol/schemas` (imported here as types only).
 */
export * from './messages.js';
export * from './media.js';
export * from './flags.js';
export * from './codes.js';
export * from './version.js';
export * from './limits.js';
export * from './schedule.js';
export * from './endpoints.js';
export * from './records.js';
export * from './admin.js';
export * from './cdn.js';
export * from './transcriber.js';
export * from './cross-room.js';
