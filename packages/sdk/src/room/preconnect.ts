import { log } from '../log/logger.js';
import type { Schedule } from '../schedule/schedule.js';
import { SignalChannel } from '../signal/signal-channel.js';

/** Who a preconnection is for: a join of another identity does not use it. */
export interface PreconnectIdentity {
  sdkAppId: number;
  userId: string;
  userSig: string;
}

/** How long a warmed channel waits for its enterRoom before it is closed (as the original's, about a minute). */
const PRECONNECT_TTL_MS = 60_000;

const same = (a: PreconnectIdentity, b: PreconnectIdentity) => a.sdkAppId === b.sdkAppId && a.userId === b.userId && a.userSig === b.userSig;

/**
 * callExperimentalAPI('preconnect'): scheduling done and the signalling socket opened before enterRoom, which then
 * joins on them (skipping a schedule round trip and the socket's handshake). Used once; dropped after a minute.
 */
export class Preconnection {
  private _warm: { identity: PreconnectIdentity; schedule: Schedule; signal: SignalChannel; timer: ReturnType<typeof setTimeout> } | undefined;
  private _pending: Promise<void> | undefined;
  /** Bumped by each warm-up and drop: a warm-up that finds it changed was superseded. */
  private _generation = 0;

  /** Schedules with `fetch` and opens the signalling socket at `urlOf(schedule)`; a failure only drops the warm-up. */
  warm(identity: PreconnectIdentity, fetch: () => Promise<Schedule>, urlOf: (schedule: Schedule) => string): Promise<void> {
    this.drop();
    const generation = this._generation;
    const pending = (async () => {
      const schedule = await fetch();
      const signal = new SignalChannel(urlOf(schedule));
      await signal.connect();
      if (this._generation !== generation) {
        signal.close(); // dropped or replaced meanwhile
        return;
      }
      const timer = setTimeout(() => this.drop(), PRECONNECT_TTL_MS);
      this._warm = { identity, schedule, signal, timer };
      log.info(`preconnected ${identity.userId} to ${urlOf(schedule)}`);
    })().catch((error: unknown) => log.warn('preconnect failed:', error)).finally(() => {
      if (this._pending === pending) this._pending = undefined;
    });
    this._pending = pending;
    return pending;
  }

  /** The warmed schedule and open channel for `identity` (once), after a warm-up in progress ends. */
  async take(identity: PreconnectIdentity): Promise<{ schedule: Schedule; signal: SignalChannel } | undefined> {
    await this._pending;
    const warm = this._warm;
    if (!warm || !same(warm.identity, identity) || !warm.signal.isOpen) {
      if (warm) log.info('preconnection not used: another identity, or its socket closed');
      this.drop();
      return undefined;
    }
    clearTimeout(warm.timer);
    this._warm = undefined;
    return { schedule: warm.schedule, signal: warm.signal };
  }

  /** Closes a warmed channel (preconnect { enable: false }, destroy). */
  drop(): void {
    this._generation++;
    this._pending = undefined;
    if (!this._warm) return;
    clearTimeout(this._warm.timer);
    this._warm.signal.close();
    this._warm = undefined;
  }
}
