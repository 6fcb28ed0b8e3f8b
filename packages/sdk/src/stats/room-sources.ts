import type { Room } from '../room/room.js';
import type { StatsSources } from './stats-reporter.js';

/** What the statistics read from a room: its peer connections and remote video freezes. */
export function roomStatsSources(room: Room, localAudio: StatsSources['localAudio']): StatsSources {
  return {
    joined: () => room.machine.is('joined'),
    uplink: () => room.publisher.peerConnection,
    downlinks: () => room.remotes.subscriptions.peerConnections(),
    dataLink: () => room.dataLinkConnection,
    freezes: () => room.remotes.playback.freezeStats(),
    localAudio,
  };
}
