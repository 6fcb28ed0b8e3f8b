import { COMMANDS, LIMITS, SERVER_CODE, type Command, type CommandMap } from '@conclave/protocol';

/** A request that passed envelope validation. */
export interface Envelope {
  id: number;
  cmd: Command;
  data: Record<string, unknown>;
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

/** Parses and checks the `{id, cmd, data}` envelope of a raw message. */
export function parseEnvelope(raw: string, extraCommands: readonly string[] = []): Envelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidMessage('message is not valid JSON');
  }
  if (!isObject(parsed)) throw new InvalidMessage('message must be a JSON object');
  const { id, cmd, data } = parsed;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw new InvalidMessage('id must be a non-negative integer');
  if (typeof cmd !== 'string' || !((COMMANDS as readonly string[]).includes(cmd) || extraCommands.includes(cmd))) {
    throw new InvalidMessage(`unknown command '${String(cmd).slice(0, 40)}'`, id, SERVER_CODE.UNKNOWN_COMMAND);
  }
  if (data !== undefined && !isObject(data)) throw new InvalidMessage('data must be an object', id, SERVER_CODE.INVALID_PARAMETER);
  return { id, cmd: cmd as Command, data: data ?? {} };
}

type FieldRule = 'string' | 'number' | 'boolean' | 'integer';
type Shape = Record<string, { type: FieldRule; optional?: boolean; max?: number; min?: number }>;

const SDP = { type: 'string', max: 32 * 1024 } as const;
const USER_ID = { type: 'string', max: LIMITS.MAX_USER_ID_LENGTH * 4, min: 1 } as const;
const WANTS: Shape = {
  srcUserId: USER_ID,
  audio: { type: 'boolean' },
  bigVideo: { type: 'boolean' },
  smallVideo: { type: 'boolean' },
  auxVideo: { type: 'boolean' },
};

/** Field rules of each command's data; the single place the server states what it accepts. */
const SHAPES: { [C in Command]: Shape } = {
  join: {
    sdkAppId: { type: 'integer', min: 1 },
    userId: USER_ID,
    userSig: { type: 'string', min: 1, max: 4096 },
    roomId: { type: 'string', min: 1, max: LIMITS.MAX_STR_ROOM_ID_LENGTH },
    useStringRoomId: { type: 'boolean' },
    privateMapKey: { type: 'string', optional: true, max: 4096 },
    latencyLevel: { type: 'integer', optional: true, min: 0, max: 10 },
    trtcRole: { type: 'integer', min: 20, max: 21 },
    trtcScene: { type: 'integer', min: 1, max: 2 },
    businessInfo: { type: 'string', optional: true, max: 4096 },
    version: { type: 'string', max: 64 },
    ua: { type: 'string', max: 1024 },
    terminalType: { type: 'integer' },
    resumeToken: { type: 'string', optional: true, max: 128 },
  },
  leave: {},
  heartbeat: {},
  publish: { sdp: SDP },
  unpublish: {},
  'mute-flag': { flag: { type: 'integer', min: 0, max: 127 } },
  subscribe: WANTS,
  'subscribe-answer': { srcUserId: USER_ID, sdp: SDP },
  'subscribe-change': WANTS,
  unsubscribe: { srcUserId: USER_ID },
  'switch-role': { role: { type: 'integer', min: 20, max: 21 }, privateMapKey: { type: 'string', optional: true, max: 4096 } },
  'data-link': { sdp: SDP },
};

/** Checks a command's data against its shape; returns it typed, or throws InvalidMessage naming the field. */
export function validateData<C extends Command>(cmd: C, data: Record<string, unknown>): CommandMap[C]['data'] {
  const shape = SHAPES[cmd];
  for (const [field, rule] of Object.entries(shape)) {
    const value = data[field];
    if (value === undefined) {
      if (rule.optional) continue;
      throw new InvalidMessage(`${cmd}: ${field} is required`);
    }
    const typeOk = rule.type === 'integer' ? Number.isSafeInteger(value) : typeof value === rule.type;
    if (!typeOk) throw new InvalidMessage(`${cmd}: ${field} must be ${rule.type === 'integer' ? 'an integer' : `a ${rule.type}`}`);
    const size = typeof value === 'string' ? value.length : typeof value === 'number' ? value : undefined;
    if (size !== undefined && rule.min !== undefined && size < rule.min) throw new InvalidMessage(`${cmd}: ${field} is too small`);
    if (size !== undefined && rule.max !== undefined && size > rule.max) throw new InvalidMessage(`${cmd}: ${field} is too large`);
  }
  return data as CommandMap[C]['data'];
}
