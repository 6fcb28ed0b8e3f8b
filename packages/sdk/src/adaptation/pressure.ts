import { log } from '../log/logger.js';

/** Compute Pressure states (docs/behaviour.md §4). */
export type PressureState = 'nominal' | 'fair' | 'serious' | 'critical';

/** Pressure sampling interval (docs/behaviour.md §9). */
export const PRESSURE_SAMPLE_MS = 2000;

/** What pressure changes: prefer remote small streams, and the lowest decoder downgrade level (0-4, docs/behaviour.md §4). */
export interface PressureEffect {
  preferSmall: boolean;
  downgradeFloor: number;
}

/**
 * serious raises the decoder's downgrade floor to level 1, critical to level 2; nominal and fair change nothing.
 * Remote small streams are preferred under serious or critical pressure only when the app opted into automatic
 * switching (`autoSmall`): as the original, which only observes pressure, an app gets the stream it asked for.
 */
export function pressureEffect(state: PressureState, autoSmall = false): PressureEffect {
  switch (state) {
    case 'serious': return { preferSmall: autoSmall, downgradeFloor: 1 };
    case 'critical': return { preferSmall: autoSmall, downgradeFloor: 2 };
    default: return { preferSmall: false, downgradeFloor: 0 };
  }
}

/** The parts of the Compute Pressure API used here. */
interface PressureRecordLike {
  state: string;
}
interface PressureObserverLike {
  observe(source: 'cpu', options?: { sampleInterval?: number }): Promise<void>;
  disconnect(): void;
}
type PressureObserverCtor = new (callback: (records: PressureRecordLike[]) => void) => PressureObserverLike;

const STATES: readonly string[] = ['nominal', 'fair', 'serious', 'critical'];

/**
 * Watches CPU pressure with the Compute Pressure API where present, sampled every 2 s, and calls
 * `onChange` with each new state. Without the API it stays 'nominal' and does nothing.
 */
export class PressureMonitor {
  private readonly _onChange: (state: PressureState) => void;
  private readonly _ctor: PressureObserverCtor | undefined;
  private _observer: PressureObserverLike | undefined;
  private _state: PressureState = 'nominal';

  /** @param ctor the PressureObserver class (default: the browser's, if any). */
  constructor(onChange: (state: PressureState) => void, ctor: PressureObserverCtor | undefined = (globalThis as { PressureObserver?: PressureObserverCtor }).PressureObserver) {
    this._onChange = onChange;
    this._ctor = ctor;
  }

  get state(): PressureState {
    return this._state;
  }

  /** Starts observing (no-op without the API or when started); a refused observation is logged. */
  start(): void {
    if (!this._ctor || this._observer) return;
    const observer = new this._ctor((records) => {
      const state = records.at(-1)?.state;
      if (state && STATES.includes(state)) this._set(state as PressureState);
    });
    this._observer = observer;
    observer.observe('cpu', { sampleInterval: PRESSURE_SAMPLE_MS }).catch((error: unknown) => {
      log.info('compute pressure unavailable:', error);
      if (this._observer === observer) this._observer = undefined;
    });
  }

  /** Stops observing and returns to 'nominal' (announced when it changes). */
  stop(): void {
    this._observer?.disconnect();
    this._observer = undefined;
    this._set('nominal');
  }

  private _set(state: PressureState): void {
    if (state === this._state) return;
    log.info(`compute pressure ${this._state} → ${state}`);
    this._state = state;
    this._onChange(state);
  }
}
