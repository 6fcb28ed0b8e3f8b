/**
 * The decoder's fallback chain and states (docs/behaviour.md §9 "Decoder"): INITIALIZED → STARTING → STARTED, FAILED after
 * 5 retries. Each failure moves one step down the chain — the WebCodecs decoder, then the wasm software
 * decoder with the webgl renderer, then with the video-frame renderer — and stays on the last step.
 */

export type DecoderState = 'INITIALIZED' | 'STARTING' | 'STARTED' | 'FAILED';
export type DecoderKind = 'webCodecs' | 'wasm';
export type RendererKind = 'webgl' | 'videoFrame';

/** One step of the chain. */
export interface Stage {
  decoder: DecoderKind;
  renderer: RendererKind;
}

export const CHAIN: readonly Stage[] = [
  { decoder: 'webCodecs', renderer: 'videoFrame' },
  { decoder: 'wasm', renderer: 'webgl' },
  { decoder: 'wasm', renderer: 'videoFrame' },
];

/** docs/behaviour.md §9: decoder retries. */
export const MAX_RETRIES = 5;

/** docs/behaviour.md §8 decoder failure codes. */
export const FAILURE = {
  WEBCODECS_CREATE: 2,
  UNSUPPORTED_CONFIG: 3,
  WEBCODECS_DECODE: 4,
  WASM_CREATE: 6,
  CONTEXT_UNAVAILABLE: 7,
  WASM_DECODE: 8,
  RENDER: 11,
} as const;
export type FailureCode = typeof FAILURE[keyof typeof FAILURE];

/** Where the chain starts for a requested decoder type ('auto' and 'mock' start at the top). */
export function firstStage(type: string | undefined, renderer?: RendererKind): number {
  if (type === 'wasm') return renderer === 'videoFrame' ? 2 : 1;
  return 0;
}

/** The stage of attempt `attempt` (0 = first try) started at `first`. */
export function stageOf(first: number, attempt: number): Stage {
  return CHAIN[Math.min(first + attempt, CHAIN.length - 1)];
}

const NEXT: Record<DecoderState, readonly DecoderState[]> = {
  INITIALIZED: ['STARTING'],
  STARTING: ['STARTED', 'STARTING', 'FAILED'],
  STARTED: ['STARTING', 'FAILED'],
  FAILED: [],
};

/** Tracks the state and the retries of one decoder; `fail` says whether to retry. */
export class DecoderLifecycle {
  state: DecoderState = 'INITIALIZED';
  /** Retries used so far. */
  retries = 0;
  /** Failure codes in order. */
  readonly failures: FailureCode[] = [];

  private _go(next: DecoderState): DecoderState {
    if (!NEXT[this.state].includes(next)) throw new Error(`decoder state ${this.state} → ${next}`);
    const prev = this.state;
    this.state = next;
    return prev;
  }

  start(): DecoderState {
    return this._go('STARTING');
  }

  started(): DecoderState {
    return this._go('STARTED');
  }

  /** Records a failure: true when a retry follows (state STARTING), false when the decoder is now FAILED. */
  fail(code: FailureCode): boolean {
    this.failures.push(code);
    if (this.retries >= MAX_RETRIES) {
      this._go('FAILED');
      return false;
    }
    this.retries += 1;
    this._go('STARTING');
    return true;
  }
}
