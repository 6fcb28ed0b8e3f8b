import { decodeFlag, type PublishState } from '@conclave/protocol';
import type { VideoRequest } from '../playback/video-request.js';

/** A big/small preference for a remote main video (docs/behaviour.md §4); a new one starts the retry rule afresh. */
export interface SmallPreference {
  readonly small: boolean;
}

/**
 * A remote user as the roster (remote-users.ts) keeps it: its publish flags and what the app asked of it. The
 * roster's methods are its only writers (docs/architecture.md "SDK remote users"); Subscriptions and RemotePlayback
 * keep what they receive and play in records of their own and see this one as a `RemoteUser`, read-only.
 */
export class RosterUser {
  readonly userId: string;
  tinyId: string;
  flag = 0;
  /** muteRemoteAudio's last word for this user (undefined: never called). */
  audioRequested: boolean | undefined;
  audioMuted = false;
  /** Playback volume, 0–100 (above 100 amplifies). */
  volume = 100;
  readonly videoRequests: { main?: VideoRequest; sub?: VideoRequest } = {};
  /** Big/small preference of the main video (startRemoteVideo / updateRemoteVideo option.small). */
  preference: SmallPreference | undefined;

  constructor(userId: string, tinyId: string) {
    this.userId = userId;
    this.tinyId = tinyId;
  }

  get state(): PublishState {
    return decodeFlag(this.flag);
  }

  get audioAvailable(): boolean {
    const s = this.state;
    return s.hasAudio && !s.audioMuted;
  }

  get videoAvailable(): boolean {
    const s = this.state;
    return s.hasVideo && !s.videoMuted;
  }

  get auxAvailable(): boolean {
    const s = this.state;
    return s.hasAuxiliary && !s.auxMuted;
  }
}

/** A remote user as everyone but the roster sees it: read-only (the roster alone writes it). */
export type RemoteUser = Readonly<Omit<RosterUser, 'videoRequests'>> & {
  readonly videoRequests: Readonly<RosterUser['videoRequests']>;
};
