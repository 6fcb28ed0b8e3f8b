import type { Emitter } from '../common/emitter.js';
import type { LocalMedia } from '../local/local-media.js';
import { log } from '../log/logger.js';
import type { Room } from '../room/room.js';
import type { TRTCEventTypes } from '../types.js';
import { LazyExperimental } from './lazy-experimental.js';
import type { PlaybackQualityHost } from './playback-quality.js';

/** The experimental APIs of a client: its room and local media, and its own remote-video calls (checked as the app's). */
export function experimentalOf(events: Emitter<TRTCEventTypes>, room: Room, local: LocalMedia,
  calls: Pick<PlaybackQualityHost, 'startRemoteVideo' | 'updateRemoteVideo' | 'stopRemoteVideo' | 'muteRemoteAudio'>): LazyExperimental {
  const audioOf = (userId: string) => room.remotes.receivedTrack(userId, 'audio');
  return new LazyExperimental({
    events,
    log,
    remoteUsers: () => room.remoteUsers.values(),
    playback: room.remotes.playback,
    localAudioTrack: () => local.microphone.current?.track,
    remoteAudioTrack: audioOf,
    remoteUsersWithAudio: () => [...room.remoteUsers.keys()].filter((userId) => audioOf(userId)),
    preconnect: (identity, target) => room.preconnect(identity, target, undefined),
    dropPreconnect: () => room.preconnection.drop(),
    startRemoteVideo: (config) => calls.startRemoteVideo(config),
    updateRemoteVideo: (config) => calls.updateRemoteVideo(config),
    stopRemoteVideo: (config) => calls.stopRemoteVideo(config),
    muteRemoteAudio: (userId, mute) => calls.muteRemoteAudio(userId, mute),
  });
}
