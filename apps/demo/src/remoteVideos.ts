import type TRTC from '@conclave/sdk';
import type { StopRemoteVideoConfig } from '@conclave/sdk';
import type { RemotePlayback } from './remotePlayback';
import type { RemoteSlot, RemoteUser, StreamKind } from './sessionTypes';
import { settle, type TaskQueues } from './taskQueues';
import type { MessageKey } from './i18n';

type TRTCInstance = ReturnType<typeof TRTC.create>;
/** The SDK's own stream type value, as its events give it. */
type SdkStreamType = NonNullable<StopRemoteVideoConfig['streamType']>;

function kindOf(streamType: SdkStreamType): StreamKind {
  return String(streamType) === 'sub' ? 'sub' : 'main';
}

const slotKey = (userId: string, kind: StreamKind) => `${kind}:${userId}`;

/** What the remote users need of the session they belong to. */
export interface RemoteHost {
  readonly trtc: TRTCInstance;
  readonly queues: TaskQueues;
  readonly playback: RemotePlayback;
  /** destroy() was called: no more SDK calls. */
  isDestroyed(): boolean;
  /** Leaving: no new video starts. */
  isClosing(): boolean;
  changed(): void;
  notify(title: MessageKey, error: unknown, vars?: Readonly<Record<string, string>>): void;
}

/**
 * The remote users of a room and their videos: who is there (in the order they entered), what each
 * publishes, and each camera and screen share played in the element its tile gives (`startRemoteVideo`
 * while the tile is on screen and the stream is available, `stopRemoteVideo` otherwise).
 */
export class RemoteVideos {
  private readonly host: RemoteHost;
  private readonly users = new Map<string, RemoteUser>();
  private readonly slots = new Map<string, RemoteSlot>();

  constructor(host: RemoteHost) {
    this.host = host;
  }

  list(): RemoteUser[] {
    return [...this.users.values()];
  }

  has(userId: string): boolean {
    return this.users.has(userId);
  }

  /** A user entered (or published before we saw them enter). */
  ensure(userId: string): void {
    if (this.users.has(userId)) return;
    this.users.set(userId, { userId, videoAvailable: false, screenAvailable: false, audioAvailable: false, audioMuted: false });
    this.slots.set(slotKey(userId, 'main'), { control: null, view: null, playingIn: null });
    this.slots.set(slotKey(userId, 'sub'), { control: null, view: null, playingIn: null });
  }

  /** A user left: the SDK drops their streams itself; only forget them here. */
  remove(userId: string): void {
    this.users.delete(userId);
    this.slots.delete(slotKey(userId, 'main'));
    this.slots.delete(slotKey(userId, 'sub'));
  }

  patch(userId: string, patch: Partial<Omit<RemoteUser, 'userId'>>): void {
    const user = this.users.get(userId);
    if (!user) return;
    this.users.set(userId, { ...user, ...patch });
    this.host.changed();
  }

  /** REMOTE_VIDEO_AVAILABLE: the stream can be played (with the SDK's own stream type value). */
  videoAvailable(userId: string, streamType: SdkStreamType): void {
    const kind = kindOf(streamType);
    this.ensure(userId);
    const slot = this.slots.get(slotKey(userId, kind));
    const { trtc, playback } = this.host;
    if (slot) {
      slot.control = {
        start: async (view) => {
          // A screen share has no small stream; the camera's size follows its tile (see RemotePlayback).
          const option = kind === 'main' ? { small: playback.isSmall(userId) } : { fillMode: 'contain' as const };
          await trtc.startRemoteVideo({ userId, streamType, view, option });
        },
        stop: async () => {
          await trtc.stopRemoteVideo({ userId, streamType });
        },
      };
    }
    this.patch(userId, kind === 'main' ? { videoAvailable: true } : { screenAvailable: true });
    this.sync(userId, kind);
  }

  /** REMOTE_VIDEO_UNAVAILABLE. */
  videoUnavailable(userId: string, streamType: SdkStreamType): void {
    if (!this.users.has(userId)) return;
    const kind = kindOf(streamType);
    this.patch(userId, kind === 'main' ? { videoAvailable: false } : { screenAvailable: false });
    this.sync(userId, kind);
  }

  /** The element a remote tile gives as view for its camera or screen share; null on unmount. */
  setView(userId: string, view: HTMLElement | null, kind: StreamKind): void {
    const slot = this.slots.get(slotKey(userId, kind));
    if (!slot || slot.view === view) return;
    slot.view = view;
    this.sync(userId, kind);
  }

  /** muteRemoteAudio(userId, mute): this user is silenced here only. */
  setAudioMuted(userId: string, mute: boolean): void {
    if (!this.users.has(userId) || this.host.isDestroyed()) return;
    this.patch(userId, { audioMuted: mute });
    this.host.queues.enqueue(`audio:${userId}`, async () => {
      if (this.host.isDestroyed() || !this.users.has(userId)) return;
      try {
        await this.host.trtc.muteRemoteAudio(userId, mute);
      } catch (error) {
        this.patch(userId, { audioMuted: !mute });
        this.host.notify('notice.muting', error, { userId });
      }
    });
  }

  private sync(userId: string, kind: StreamKind): void {
    const key = slotKey(userId, kind);
    const { host } = this;
    if (host.isDestroyed() || !this.slots.has(key)) return;
    host.queues.enqueue(`video:${key}`, async () => {
      const slot = this.slots.get(key);
      if (host.isDestroyed() || !slot) return;
      const user = this.users.get(userId);
      const available = kind === 'main' ? user?.videoAvailable : user?.screenAvailable;
      const want = !host.isClosing() && available && slot.control ? slot.view : null;
      if (slot.playingIn && slot.playingIn !== want) {
        slot.playingIn = null;
        // After REMOTE_VIDEO_UNAVAILABLE the stream may be gone already: a failure here is expected.
        if (slot.control) await settle(() => slot.control?.stop(), `stopRemoteVideo(${userId})`);
      }
      if (want && !slot.playingIn && slot.control) {
        try {
          await slot.control.start(want);
          slot.playingIn = want;
        } catch (error) {
          if (this.users.has(userId)) host.notify(kind === 'main' ? 'notice.videoOf' : 'notice.screenOf', error, { userId });
        }
      }
    });
  }
}
