import type { Emitter } from '../common/emitter.js';
import type { TRTCEventTypes } from '../types.js';
import { MediaRttMeter } from '../adaptation/media-rtt.js';
import { RelaySwitch } from '../adaptation/relay-switch.js';
import type { Schedule } from '../schedule/schedule.js';
import type { SignalChannel } from '../signal/signal-channel.js';

/** What the room hands its relay switch. */
export interface RelayWiring {
  schedule(): Schedule | undefined;
  iceServers(): RTCIceServer[];
  relayImposed(): boolean;
  signal(): SignalChannel | undefined;
  /** The room's events: network-quality carries the media loss. */
  events: Emitter<TRTCEventTypes>;
  uplink(): RTCPeerConnection | undefined;
  downlink(): RTCPeerConnection | undefined;
  rebuild(): void;
}

const isTurn = (server: RTCIceServer) => (Array.isArray(server.urls) ? server.urls : [server.urls]).some((url) => /^turns?:/.test(url));

/** The room's relay switch: the media links' paths are measured against the signalling ping. */
export function relaySwitchFor(room: RelayWiring): RelaySwitch {
  const meter = new MediaRttMeter();
  // The worse loss of the last network-quality (every 2 s, as the checks).
  let loss: number | undefined;
  room.events.on('network-quality', (quality) => {
    loss = Math.max(quality.uplinkLoss, quality.downlinkLoss);
  });
  const links = () => [room.uplink(), room.downlink()].filter((pc): pc is RTCPeerConnection => pc !== undefined && pc.connectionState !== 'closed');
  return new RelaySwitch({
    thresholds: () => room.schedule()?.config.useTurnTcpInfo,
    hasTurn: () => room.iceServers().some(isTurn),
    relayImposed: room.relayImposed,
    signalRttMs: () => room.signal()?.rttMs,
    lossPct: () => loss,
    links,
    mediaRttMs: async () => {
      // Every link is read each time, so each one's totals stay current; the slowest path counts.
      const rtts = await Promise.all(links().map((pc) => meter.read(pc)));
      const known = rtts.filter((rtt): rtt is number => rtt !== undefined);
      return known.length > 0 ? Math.max(...known) : undefined;
    },
    rebuild: room.rebuild,
  });
}
