import { decodeFlag, type PublishState } from '@conclave/protocol';
import type { Downlink } from '../transport/downlink.js';
import type { AudioPlayer } from '../playback/audio-player.js';
import type { VideoPlayer, FillMode } from '../playback/video-player.js';

/** What the app asked to receive of a remote user. */
export interface Wants {
  audio: boolean;
  bigVideo: boolean;
  auxVideo: boolean;
}

/** Where and how a remote video should render once its track is there. */
export interface VideoRequest {
  views: HTMLElement[];
  fillMode?: FillMode;
  mirror?: boolean;
}

/** A remote user: its publish flags and what we receive and play of it. */
export class RemoteUser {
  readonly userId: string;
  tinyId: string;
  flag = 0;
  readonly wants: Wants = { audio: false, bigVideo: false, auxVideo: false };
  /** The wants the server currently has. */
  sent: Wants | undefined;
  downlink: Downlink | undefined;
  audioPlayer: AudioPlayer | undefined;
  audioMuted = false;
  /** Playback volume, 0–100 (above 100 amplifies). */
  volume = 100;
  readonly videoPlayers: { main?: VideoPlayer; sub?: VideoPlayer } = {};
  readonly videoRequests: { main?: VideoRequest; sub?: VideoRequest } = {};
  /** Serialises subscription changes of this user. */
  queue: Promise<void> = Promise.resolve();

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

  /** True when anything is wanted. */
  get wantsAnything(): boolean {
    return this.wants.audio || this.wants.bigVideo || this.wants.auxVideo;
  }
}
