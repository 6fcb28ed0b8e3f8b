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
 * video, and CPU pressure (serious or critical receives remote small streams where published; the
 * decoder's downgrade floor is pressureEffect(state).downgradeFloor, wired through onPressure).
 */
export class RoomAdaptation {
  readonly relay: RelaySwitch;
  readonly encodeHealth: EncodeHealthMonitor;
  readonly pressure: PressureMonitor;

  constructor(wiring: AdaptationWiring) {
    this.relay = relaySwitchFor(wiring);
    this.encodeHealth = encodeHealthFor(wiring.publisher);
    this.pressure = new PressureMonitor((state) => {
      wiring.subscriptions.setPressureSmall(pressureEffect(state).preferSmall);
      wiring.onPressure(state);
    });
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
