import type { DeviceWord, ErrorInfo } from './errors';
import type { MessageKey } from './i18n';
import type { Role } from './joinParams';

/** The shapes a RoomSession shows to React and uses inside (kept apart so session.ts stays one concept). */

/** What a toggle shows: `starting`/`stopping` while the SDK call runs. */
export type MediaState = 'off' | 'starting' | 'on' | 'stopping';

export interface RemoteUser {
  readonly userId: string;
  /** The main (camera) stream is published. */
  readonly videoAvailable: boolean;
  /** The sub stream (screen share) is published. */
  readonly screenAvailable: boolean;
  readonly audioAvailable: boolean;
  /** Muted here with `muteRemoteAudio`. */
  readonly audioMuted: boolean;
}

export interface Notice {
  readonly id: number;
  /** What failed, e.g. `notice.camera` (with its `{userId}`): shown in the page's language. */
  readonly title: MessageKey;
  readonly vars?: Readonly<Record<string, string>>;
  /** What happened: `explainError` puts it in words when shown. */
  readonly error: ErrorInfo;
  readonly device: DeviceWord;
}

export interface SessionSnapshot {
  readonly connectionState: string;
  /** In the order they entered. */
  readonly remoteUsers: readonly RemoteUser[];
  readonly camera: MediaState;
  readonly mic: MediaState;
  readonly notices: readonly Notice[];
  /** 'anchor' or 'audience' (always 'anchor' in the rtc scene). */
  readonly role: Role;
  /** switchRole is running. */
  readonly switchingRole: boolean;
  /** Live: my hand is up (an anchor who publishes nothing yet). */
  readonly handRaised: boolean;
  /** Live: the room's audience members, me included when I am one (hidden from remoteUsers). */
  readonly audienceCount: number;
}

export interface SessionEnd {
  readonly reason: 'kicked';
  readonly detail: string;
}

/** A remote video: the camera (`main`) or the screen share (`sub`). */
export type StreamKind = 'main' | 'sub';

/** Starts/stops one remote stream; made from the event so it carries the SDK's own stream type value. */
export interface VideoControl {
  start(view: HTMLElement): Promise<void>;
  stop(): Promise<void>;
}

export interface RemoteSlot {
  control: VideoControl | null;
  /** The element the tile gives as view (null while unmounted). */
  view: HTMLElement | null;
  /** The view the stream plays in now. */
  playingIn: HTMLElement | null;
}
