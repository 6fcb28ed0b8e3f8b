import { SERVER_CODE, type Command, type CommandMap } from '@conclave/protocol';
import { COMMAND_SCHEMAS } from '@conclave/protocol/schemas';
import { formatIssues } from '../config/schema.js';

/** A request that passed envelope validation. */
export interface Envelope {
  id: number;
  cmd: Command;
  data: unknown;
}

/** Thrown for invalid input; the message is sent back in the reply. */
export class InvalidMessage extends Error {
  override name = 'InvalidMessage';
  /** The request's id, when the envelope had a valid one (so the reply can carry it). */
  readonly id: number | undefined;
  /** The reply code; by default BAD_REQUEST for a bad envelope and INVALID_PARAMETER for bad data. */
  readonly code: number | undefined;

  constructor(message: string, id?: number, code?: number) {
    super(message);
    this.id = id;
    this.code = code;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True for a name in COMMAND_SCHEMAS (own keys only: "constructor" or "__proto__" are not commands). */
export function isCommand(name: unknown): name is Command {
  return typeof name === 'string' && Object.hasOwn(COMMAND_SCHEMAS, name);
}

/**
 * Parses and checks the `{id, cmd, data}` envelope of a raw message, step by step so the reply says what
 * was wrong and carries the id as soon as it is known.
 */
export function parseEnvelope(raw: string): Envelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidMessage('message is not valid JSON');
  }
  if (!isObject(parsed)) throw new InvalidMessage('message must be a JSON object');
  const { id, cmd, data } = parsed;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw new InvalidMessage('id must be a non-negative integer');
  if (!isCommand(cmd)) throw new InvalidMessage(`unknown command '${String(cmd).slice(0, 40)}'`, id, SERVER_CODE.UNKNOWN_COMMAND);
  if (data !== undefined && !isObject(data)) throw new InvalidMessage('data must be an object', id, SERVER_CODE.INVALID_PARAMETER);
  return { id, cmd, data: data ?? {} };
}

/**
 * Checks a command's data against its schema in @conclave/protocol (COMMAND_SCHEMAS); returns the parsed
 * data (unknown fields dropped), or throws InvalidMessage naming the fields.
 */
export function validateData<C extends Command>(cmd: C, data: unknown): CommandMap[C]['data'] {
  const result = COMMAND_SCHEMAS[cmd].data.safeParse(data);
  if (!result.success) throw new InvalidMessage(`${cmd}: ${formatIssues(result.error)}`);
  // The schema just parsed it, and CommandMap[C]['data'] is that schema's inferred type; TypeScript only
  // cannot follow the generic index.
  return result.data as CommandMap[C]['data'];
}
