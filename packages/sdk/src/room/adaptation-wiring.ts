import type { EncodeHealthMonitor } from '../adaptation/encode-health.js';
import { encodeHealthFor } from '../adaptation/encode-health-switch.js';
import { PressureMonitor, pressureEffect, type PressureState } from '../adaptation/pressure.js';
import type { RelaySwitch } from '../adaptation/relay-switch.js';
import type { Publisher } from './publisher.js';
import { relaySwitchFor, type RelayWiring } from './relay-wiring.js';
import type { Subscriptions } from './subscriptions.js';

/** What the room hands its adaptation. */
export interface AdaptationWiring extends RelayWiring {
  publisher: Publisher;
  subscriptions: Subscriptions;
  /** Every pressure change, after the small-stream preference was applied. */
  onPressure(state: PressureState): void;
}

/**
 * The room's adaptation (docs/behaviour.md §4), running while joined: relay switching, encode health of the published
 * video, and CPU pressure (observed for the decoder's downgrade floor, pressureEffect(state).downgradeFloor,
 * wired through onPressure; remote small streams under serious or critical pressure only once opted into
 * with setAutoSmallOnPressure, as the original leaves that switch to its SmallStreamAutoSwitcher plugin).
 */
export class RoomAdaptation {
  readonly relay: RelaySwitch;
  readonly encodeHealth: EncodeHealthMonitor;
  readonly pressure: PressureMonitor;
  private readonly _subscriptions: Subscriptions;
  private _autoSmall = false;

  constructor(wiring: AdaptationWiring) {
    this.relay = relaySwitchFor(wiring);
    this.encodeHealth = encodeHealthFor(wiring.publisher);
    this._subscriptions = wiring.subscriptions;
    this.pressure = new PressureMonitor((state) => {
      wiring.subscriptions.setPressureSmall(pressureEffect(state, this._autoSmall).preferSmall);
      wiring.onPressure(state);
    });
  }

  /** Opts into (or out of) receiving remote small streams under CPU pressure; applies to the current state. */
  setAutoSmallOnPressure(on: boolean): void {
    this._autoSmall = on;
    this._subscriptions.setPressureSmall(pressureEffect(this.pressure.state, on).preferSmall);
  }

  start(): void {
    this.relay.start();
    this.encodeHealth.start();
    this.pressure.start();
  }

  stop(): void {
    this.relay.stop();
    this.encodeHealth.stop();
    this.pressure.stop();
  }
}
