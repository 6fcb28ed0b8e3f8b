/**
 * Every signalling command's schemas, by name. A group of commands lives in its own file and is spread
 * in here; CommandMap (messages.ts) and the server's validation both derive from this one object.
 */
import { cdnCommands } from './cdn.js';
import { crossRoomCommands } from './cross-room.js';
import { downlinkCommands } from './downlink.js';
import { publishCommands } from './publish.js';
import { sessionCommands } from './session.js';
import { subscribeCommands } from './subscribe.js';
import { transcriberCommands } from './transcriber.js';
import type { CommandSchema } from './fields.js';

export const COMMAND_SCHEMAS = {
  ...sessionCommands,
  ...publishCommands,
  ...subscribeCommands,
  ...downlinkCommands,
  ...cdnCommands,
  ...transcriberCommands,
  ...crossRoomCommands,
} satisfies Record<string, CommandSchema>;

/** Every command name. */
export const COMMANDS = Object.freeze(Object.keys(COMMAND_SCHEMAS)) as readonly (keyof typeof COMMAND_SCHEMAS)[];

export * from './fields.js';
export * from './session.js';
export * from './publish.js';
export * from './subscribe.js';
export * from './downlink.js';
export * from './cdn.js';
export * from './transcriber.js';
export * from './cross-room.js';
