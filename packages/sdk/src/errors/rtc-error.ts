import { ERROR_CODE, type ErrorCode } from '../constants/error-code.js';

/** What an RtcError is built from. */
export interface RtcErrorInit {
  code: ErrorCode;
  extraCode?: number;
  message: string;
  functionName?: string;
  originError?: unknown;
  handler?: () => void;
  /** Details some errors carry to help handle them (5.12+). */
  data?: unknown;
  /** The remote user a remote-media error is about (5507, as the original's own field). */
  userId?: string;
  /** The remote stream a remote-video error is about (5507). */
  streamType?: 'main' | 'sub';
}

const asError = (value: unknown): Error | undefined =>
  value === undefined ? undefined : value instanceof Error ? value : new Error(String(value));

const CODE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(ERROR_CODE).map(([name, code]) => [code, name]));

/**
 * The one error class of the SDK: every public method rejects only with an RtcError.
 * `code` is a TRTC.ERROR_CODE value; `extraCode` refines it (docs/behaviour.md §8 reading B, or a server code).
 */
export class RtcError extends Error {
  override readonly name = 'RtcError';
  readonly code: ErrorCode;
  readonly extraCode?: number;
  readonly functionName: string;
  readonly originError?: Error;
  /** Present for 5302 (permission denied by the system): opens the OS privacy settings where possible. */
  readonly handler?: () => void;
  /**
   * Details some errors carry (5.12+). The original's core sets none; its VideoMixer plugin's 'all sources mix
   * failed' carries `{ failedDetails }`. Conclave's 5507 (a remote video that does not decode) carries
   * `{ userId, streamType }` (docs/behaviour.md §8.1).
   */
  readonly data?: unknown;
  /** 5507 (video decode failed): the remote user whose video does not decode, a field of the error as in 5.17. */
  readonly userId?: string;
  /** 5507: which of that user's videos ('main' or 'sub'). */
  readonly streamType?: 'main' | 'sub';

  constructor(init: RtcErrorInit) {
    super(RtcError._format(init));
    this.code = init.code;
    this.extraCode = init.extraCode;
    this.functionName = init.functionName ?? '';
    this.originError = asError(init.originError);
    this.handler = init.handler;
    if (init.data !== undefined) this.data = init.data;
    if (init.userId !== undefined) this.userId = init.userId;
    if (init.streamType !== undefined) this.streamType = init.streamType;
  }

  /** The text: message, code name and hex code (docs/behaviour.md §8). */
  private static _format(init: RtcErrorInit): string {
    const name = CODE_NAMES[init.code] ?? 'UNKNOWN_ERROR';
    const extra = init.extraCode !== undefined ? ` extraCode:${init.extraCode}` : '';
    return `${init.message} <${name} 0x${init.code.toString(16)}${extra}>`;
  }

  /**
   * Converts anything thrown inside the SDK into an RtcError (an RtcError passes through,
   * with the function name filled in).
   */
  static convertFrom(error: unknown, functionName?: string): RtcError {
    if (error instanceof RtcError) {
      if (!functionName || error.functionName) return error;
      return new RtcError({ ...RtcError._details(error), code: error.code, extraCode: error.extraCode, message: error.rawMessage, functionName, originError: error.originError });
    }
    // An RtcError made by a plugin file (its own bundled copy of the class) keeps its code.
    const foreign = error as Partial<RtcError> | null;
    if (error instanceof Error && foreign?.name === 'RtcError' && typeof foreign.code === 'number' && CODE_NAMES[foreign.code]) {
      const raw = error.message.replace(/ <[A-Z_]+ 0x[0-9a-f]+( extraCode:-?\d+)?>$/, '');
      return new RtcError({ ...RtcError._details(foreign), code: foreign.code, extraCode: foreign.extraCode, message: raw, functionName: foreign.functionName || functionName, originError: foreign.originError });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new RtcError({ code: ERROR_CODE.UNKNOWN_ERROR, message, functionName, originError: error });
  }

  /** What a conversion keeps besides code, message and origin: handler, data and the remote user's fields. */
  private static _details(error: Partial<RtcError>): Pick<RtcErrorInit, 'handler' | 'data' | 'userId' | 'streamType'> {
    return { handler: error.handler, data: error.data, userId: error.userId, streamType: error.streamType };
  }

  /** The message without the code suffix. */
  get rawMessage(): string {
    return this.message.replace(/ <[A-Z_]+ 0x[0-9a-f]+( extraCode:-?\d+)?>$/, '');
  }
}
