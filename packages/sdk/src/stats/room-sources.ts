import type { Room } from '../room/room.js';
import type { StatsSources } from './stats-reporter.js';

/** What the statistics read from a room: its peer connections and remote video freezes. */
export function roomStatsSources(room: Room, localAudio: StatsSources['localAudio']): StatsSources {
  return {
    joined: () => room.machine.is('joined'),
    uplink: () => room.publisher.peerConnection,
    // With each user, whether its main video is received as the small stream (the statistics report 'small').
    downlinks: () => room.remotes.subscriptions.peerConnections().map((link) => ({ ...link, smallVideo: room.remotes.get(link.userId)?.sent?.smallVideo === true })),
    dataLink: () => room.dataLinkConnection,
    freezes: () => room.remotes.freezeStats(),
    localAudio,
  };
}
