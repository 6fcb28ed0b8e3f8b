import { EncodeHealthMonitor } from '../adaptation/encode-health.js';
import { log } from '../log/logger.js';
import { PressureMonitor, pressureEffect, type PressureState } from '../adaptation/pressure.js';
import type { RelaySwitch } from '../adaptation/relay-switch.js';
import type { Publisher } from './publisher.js';
import { relaySwitchFor, type RelayWiring } from './relay-wiring.js';
import type { Subscriptions } from './subscriptions.js';

/** The encode-health monitor of the room's published main video. */
function encodeHealthFor(publisher: Publisher): EncodeHealthMonitor {
  return new EncodeHealthMonitor({
    video: () => {
      const uplink = publisher.uplink;
      const local = publisher.local('video');
      const targetKbps = local?.encoding?.maxBitrateKbps;
      const targetFps = local?.encoding?.maxFramerate ?? local?.track.getSettings().frameRate;
      if (!uplink || !local || !targetKbps || !targetFps) return undefined;
      return { sender: uplink.sender('video'), targetFps, targetKbps };
    },
    // SPEC's answer is the software encoder. Browsers offer no such switch; moving the sender to VP8
    // (setParameters' per-encoding codec) would change the payload mid-stream on an m-line both engines
    // forward to subscribers negotiated for the publisher's first codec, so it is logged only.
    unhealthy: (_sender, sample) => log.warn(`hardware H264 encoder unhealthy: ${Math.round(sample.fps)}/${sample.targetFps} fps, ` +
      `${Math.round(sample.bitrate / 1000)}/${Math.round(sample.targetBitrate / 1000)} kbit/s for more than 3 heartbeats (no codec switch: the engines forward one codec per publisher)`),
  });
}

/** What the room hands its adaptation. */
export interface AdaptationWiring extends RelayWiring {
  publisher: Publisher;
  subscriptions: Subscriptions;
  /** Every pressure change, after the small-stream preference was applied. */
  onPressure(state: PressureState): void;
}

/**
 * The room's adaptation (SPEC §4), running while joined: relay switching, encode health of the published
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
