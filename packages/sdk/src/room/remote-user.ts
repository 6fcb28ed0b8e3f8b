import { decodeFlag, type PublishState, type SubscriptionWants } from '@conclave/protocol';
import { SerialQueue } from '../common/resource-queue.js';
import type { AudioPlayer } from '../playback/audio-player.js';
import type { RemoteVideo } from '../playback/remote-video.js';
import type { FillMode } from '../playback/video-player.js';

/** What is subscribed of a remote user. */
export type Wants = SubscriptionWants;

/** Where and how a remote video should render once its track is there. */
export interface VideoRequest {
  views: HTMLElement[];
  fillMode?: FillMode;
  mirror?: boolean;
  poster?: string;
  /** Render into a <canvas> instead of a <video> (option.canvasRender). */
  canvasRender?: boolean;
  /** Receive only while the first view is visible (IntersectionObserver). */
  receiveWhenViewVisible?: boolean;
  viewRoot?: HTMLElement;
}

/** Re-subscription tries of a big/small switch before the preference is dropped (docs/behaviour.md §9: 10). */
export const SMALL_SWITCH_RETRIES = 10;

/** A big/small preference for a remote main video and its remaining re-subscription tries (docs/behaviour.md §4). */
export interface SmallPreference {
  small: boolean;
  retriesLeft: number;
}

/** What decides a subscription, besides the remote's flag. */
export interface WantsInput {
  state: PublishState;
  autoReceiveAudio: boolean;
  autoReceiveVideo: boolean;
  /** muteRemoteAudio(…, false) asked for audio (true), or (…, true) … still received, only silenced. */
  audioRequested: boolean | undefined;
  mainRequested: boolean;
  subRequested: boolean;
  mainHidden: boolean;
  subHidden: boolean;
  preferSmall: boolean;
}

/**
 * The subscription wanted of a remote user (pure). Audio when published, unmuted and asked for
 * (autoReceiveAudio or muteRemoteAudio(…, false)); main video when available and asked for
 * (autoReceiveVideo or startRemoteVideo) and its view is not hidden — the small stream instead of
 * the big one when preferred and the remote publishes it; the auxiliary video likewise.
 */
export function computeWants(input: WantsInput): Wants {
  const s = input.state;
  const audio = s.hasAudio && !s.audioMuted && (input.audioRequested ?? input.autoReceiveAudio);
  const main = s.hasVideo && !s.videoMuted && (input.autoReceiveVideo || input.mainRequested) && !input.mainHidden;
  const small = main && input.preferSmall && s.hasSmall;
  const auxVideo = s.hasAuxiliary && !s.auxMuted && (input.autoReceiveVideo || input.subRequested) && !input.subHidden;
  return { audio, bigVideo: main && !small, smallVideo: small, auxVideo };
}

export function sameWants(a: Wants | undefined, b: Wants): boolean {
  return !!a && a.audio === b.audio && a.bigVideo === b.bigVideo && a.smallVideo === b.smallVideo && a.auxVideo === b.auxVideo;
}

export function wantsAnything(w: Wants): boolean {
  return w.audio || w.bigVideo || w.smallVideo || w.auxVideo;
}

/** A remote user: its publish flags, what the app asked of it, and what we receive and play of it. */
export class RemoteUser {
  readonly userId: string;
  tinyId: string;
  flag = 0;
  /** The subscription the server currently has (undefined: none). */
  sent: Wants | undefined;
  audioPlayer: AudioPlayer | undefined;
  /** muteRemoteAudio's last word for this user (undefined: never called). */
  audioRequested: boolean | undefined;
  audioMuted = false;
  /** Playback volume, 0–100 (above 100 amplifies). */
  volume = 100;
  readonly videoPlayers: { main?: RemoteVideo; sub?: RemoteVideo } = {};
  readonly videoRequests: { main?: VideoRequest; sub?: VideoRequest } = {};
  /** Views scrolled out of sight (receiveWhenViewVisible). */
  readonly hidden: { main: boolean; sub: boolean } = { main: false, sub: false };
  readonly observers: { main?: IntersectionObserver; sub?: IntersectionObserver } = {};
  /** Big/small preference of the main video (startRemoteVideo / updateRemoteVideo option.small). */
  preference: SmallPreference | undefined;
  /** Serialises subscription changes of this user. */
  readonly queue = new SerialQueue();

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
