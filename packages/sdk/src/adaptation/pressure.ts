import { log } from '../log/logger.js';

/** Compute Pressure states (SPEC §4). */
export type PressureState = 'nominal' | 'fair' | 'serious' | 'critical';

/** Pressure sampling interval (SPEC §9). */
export const PRESSURE_SAMPLE_MS = 2000;

/** What pressure changes: prefer remote small streams, and the lowest decoder downgrade level (0-4, SPEC §4). */
export interface PressureEffect {
  preferSmall: boolean;
  downgradeFloor: number;
}

/** nominal/fair change nothing; serious receives small streams and downgrades decoding to level 1; critical to level 2. */
export function pressureEffect(state: PressureState): PressureEffect {
  switch (state) {
    case 'serious': return { preferSmall: true, downgradeFloor: 1 };
    case 'critical': return { preferSmall: true, downgradeFloor: 2 };
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
  readonly #onChange: (state: PressureState) => void;
  readonly #ctor: PressureObserverCtor | undefined;
  #observer: PressureObserverLike | undefined;
  #state: PressureState = 'nominal';

  /** @param ctor the PressureObserver class (default: the browser's, if any). */
  constructor(onChange: (state: PressureState) => void, ctor: PressureObserverCtor | undefined = (globalThis as { PressureObserver?: PressureObserverCtor }).PressureObserver) {
    this.#onChange = onChange;
    this.#ctor = ctor;
  }

  get state(): PressureState {
    return this.#state;
  }

  /** Starts observing (no-op without the API or when started); a refused observation is logged. */
  start(): void {
    if (!this.#ctor || this.#observer) return;
    const observer = new this.#ctor((records) => {
      const state = records.at(-1)?.state;
      if (state && STATES.includes(state)) this.#set(state as PressureState);
    });
    this.#observer = observer;
    observer.observe('cpu', { sampleInterval: PRESSURE_SAMPLE_MS }).catch((error: unknown) => {
      log.info('compute pressure unavailable:', error);
      if (this.#observer === observer) this.#observer = undefined;
    });
  }

  /** Stops observing and returns to 'nominal' (announced when it changes). */
  stop(): void {
    this.#observer?.disconnect();
    this.#observer = undefined;
    this.#set('nominal');
  }

  #set(state: PressureState): void {
    if (state === this.#state) return;
    log.info(`compute pressure ${this.#state} → ${state}`);
    this.#state = state;
    this.#onChange(state);
  }
}
