import type TRTC from '@conclave/sdk';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/**
 * Tiles narrower than this receive the remote's small stream (when the choice is automatic). Playback's own
 * figure: the stage measures tiles and reports their width (setTileWidth), it does not choose streams.
 */
const SMALL_STREAM_BELOW_PX = 400;

/** A player state as the SDK reports it. */
export type PlayState = 'PLAYING' | 'PAUSED' | 'STOPPED';

/** What this page does with one remote user's media, and how it plays. */
/** Which stream of the camera to receive: chosen by the tile's size, or fixed by the user. */
export type StreamChoice = 'auto' | 'big' | 'small';

export interface RemotePlaybackState {
  readonly choice: StreamChoice;
  /** Width of the user's tile in CSS pixels (0 before it is measured). */
  readonly tileWidth: number;
  /** Receives the small stream of the main video (updateRemoteVideo option.small). */
  readonly small: boolean;
  /** Playback volume 0–150 (setRemoteAudioVolume; above 100 amplifies). */
  readonly volume: number;
  readonly audio: { readonly state: PlayState; readonly reason: string };
  readonly video: { readonly state: PlayState; readonly reason: string };
  /** The size of the first frame received (first-video-frame). */
  readonly firstFrame: { readonly width: number; readonly height: number } | null;
  /** A switch is on its way. */
  readonly switching: boolean;
  readonly error: string | null;
}

const INITIAL: RemotePlaybackState = {
  choice: 'auto',
  tileWidth: 0,
  small: false,
  volume: 100,
  audio: { state: 'STOPPED', reason: '' },
  video: { state: 'STOPPED', reason: '' },
  firstFrame: null,
  switching: false,
  error: null,
};

/**
 * Per remote user: big/small choice, volume, and the play states the SDK announces
 * (audio-/video-play-state-changed, first-video-frame). Read with useSyncExternalStore.
 */
export class RemotePlayback {
  private readonly trtc: TRTCInstance;
  private readonly listeners = new Set<() => void>();
  private states = new Map<string, RemotePlaybackState>();

  constructor(trtc: TRTCInstance) {
    this.trtc = trtc;
    trtc.on('audio-play-state-changed', ({ userId, state, reason }) => this.patch(userId, { audio: { state, reason } }));
    trtc.on('video-play-state-changed', ({ userId, streamType, state, reason }) => {
      if (String(streamType) === 'main') this.patch(userId, { video: { state, reason } });
    });
    trtc.on('first-video-frame', ({ userId, streamType, width, height }) => {
      if (String(streamType) === 'main') this.patch(userId, { firstFrame: { width, height } });
    });
    trtc.on('remote-user-exit', ({ userId }) => {
      const next = new Map(this.states);
      next.delete(userId);
      this.states = next;
      this.emit();
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): ReadonlyMap<string, RemotePlaybackState> => this.states;

  /** The state of one user (defaults before anything happened). */
  of(userId: string): RemotePlaybackState {
    return this.states.get(userId) ?? INITIAL;
  }

  /** Whether the main video of `userId` should be received small (for startRemoteVideo). */
  isSmall(userId: string): boolean {
    return this.of(userId).small;
  }

  /** The user picks a stream, or gives the choice back to the tile size ('auto'). */
  async choose(userId: string, choice: StreamChoice, playing: boolean): Promise<void> {
    this.patch(userId, { choice });
    await this.setSmall(userId, this.wantsSmall(userId), playing);
  }

  /** The tile was resized: in 'auto', a tile narrower than SMALL_STREAM_BELOW_PX gets the small stream. */
  async setTileWidth(userId: string, tileWidth: number, playing: boolean): Promise<void> {
    const state = this.of(userId);
    if (Math.abs(state.tileWidth - tileWidth) < 1) return;
    this.patch(userId, { tileWidth });
    const small = this.wantsSmall(userId);
    if (small !== state.small && !state.switching) await this.setSmall(userId, small, playing);
  }

  private wantsSmall(userId: string): boolean {
    const { choice, tileWidth } = this.of(userId);
    if (choice !== 'auto') return choice === 'small';
    return tileWidth > 0 && tileWidth < SMALL_STREAM_BELOW_PX;
  }

  /** Switches the main video of `userId` between the big and the small stream. */
  async setSmall(userId: string, small: boolean, playing: boolean): Promise<void> {
    const before = this.of(userId).small;
    if (before === small) return;
    this.patch(userId, { small, switching: playing, error: null });
    if (!playing) return; // applied by the next startRemoteVideo
    try {
      await this.trtc.updateRemoteVideo({ userId, streamType: TRTC_MAIN, option: { small } });
      this.patch(userId, { switching: false });
      // The tile may have been resized (or the choice changed) while the switch ran.
      if (this.wantsSmall(userId) !== small) await this.setSmall(userId, this.wantsSmall(userId), playing);
    } catch (error) {
      this.patch(userId, { small: before, switching: false, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Sets the playback volume of `userId` (0–150). */
  setVolume(userId: string, volume: number): void {
    try {
      this.trtc.setRemoteAudioVolume(userId, volume);
      this.patch(userId, { volume, error: null });
    } catch (error) {
      this.patch(userId, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private patch(userId: string, patch: Partial<RemotePlaybackState>): void {
    this.states = new Map(this.states).set(userId, { ...this.of(userId), ...patch });
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

const TRTC_MAIN = 'main' as const;
