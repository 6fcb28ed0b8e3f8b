import TRTC from '@conclave/sdk';
import { CdnRelay } from './cdnRelay';
import { RoomChat } from './chat';
import { describeError, type DeviceWord } from './errors';
import { EffectsControls } from './effects';
import { LocalMediaControls } from './localMedia';
import type { MessageKey } from './i18n';
import { RemotePlayback } from './remotePlayback';
import { RemoteVideos } from './remoteVideos';
import { RoomStats } from './stats';
import { RoomControl } from './moderation/controlMessages';
import type { JoinParams, Role } from './joinParams';
import type { MediaState, Notice, SessionEnd, SessionSnapshot, StreamKind } from './sessionTypes';
import { settle, TaskQueues } from './taskQueues';

type TRTCInstance = ReturnType<typeof TRTC.create>;

export type { MediaState, Notice, RemoteUser, SessionEnd, SessionSnapshot, StreamKind } from './sessionTypes';

const MAX_NOTICES = 4;
/** How long leaving waits for pending media calls before it exits anyway. */
const LEAVE_DRAIN_MS = 3000;

/**
 * One stay in a room: owns a TRTC instance from `TRTC.create()` to `destroy()`.
 *
 * Events are subscribed before `enterRoom`, so nothing that happens while entering is lost.
 * React reads it through `subscribe`/`getSnapshot` (useSyncExternalStore). Media calls for one
 * target (camera, mic, each remote user) run one after another and each compares what is wanted
 * with what is running when its turn comes, so fast toggles, remounts and React's StrictMode
 * double effects collapse into the needed calls only.
 */
export class RoomSession {
  readonly params: JoinParams;
  /** The chat (custom messages, cmdId 1). */
  readonly chat: RoomChat;
  /** Statistics, network quality and speaking levels. */
  readonly stats: RoomStats;
  /** Device pickers, profile, mirror, mute, screen share, publish state. */
  readonly localMedia: LocalMediaControls;
  /** Per remote user: big/small stream, volume, play states. */
  readonly playback: RemotePlayback;
  /** Background blur, touch-up, noise suppression (the SDK's plugins). */
  readonly effects: EffectsControls;
  /** Raised hands, invitations on stage, requests to mute (custom messages). */
  readonly control: RoomControl;
  /** My stream relayed to a CDN URL set in Settings (CDNStreaming). */
  readonly cdn: CdnRelay;
  private readonly trtc: TRTCInstance;
  private readonly listeners = new Set<() => void>();
  private readonly queues = new TaskQueues();
  /** Who is in the room, and their cameras and screen shares. */
  private readonly remote: RemoteVideos;
  private snapshot: SessionSnapshot;
  private connectionState = 'DISCONNECTED';
  private sawStateEvent = false;
  private notices: readonly Notice[] = [];
  private nextNoticeId = 1;
  private localView: HTMLElement | null = null;
  private cameraWanted: boolean;
  private cameraIn: HTMLElement | null = null;
  private micWanted: boolean;
  private micOn = false;
  /** enterRoom resolved. */
  private entered = false;
  /** leave started or the room was lost: no new media starts. */
  private closing = false;
  /** destroy() was called: no more SDK calls. */
  private destroyed = false;
  private leaving: Promise<void> | null = null;
  private endHandler: ((end: SessionEnd) => void) | null = null;
  private role: Role;
  private switchingRole = false;
  /** Live: an anchor publishing nothing who asks to go on stage (see RoomControl). */
  private handRaised = false;
  /** Live: the room's audience, hidden from the user list (Conclave's audience-count-changed). */
  private audienceCount = 0;

  constructor(params: JoinParams) {
    this.params = params;
    this.role = params.scene === 'live' ? params.role : 'anchor';
    // An audience only watches until it becomes an anchor.
    this.cameraWanted = params.camera && this.role === 'anchor';
    this.micWanted = params.mic && this.role === 'anchor';
    // The demo shows a lost channel as Conclave's seed announced it (RECONNECTING), not the original's DISCONNECTED.
    this.trtc = TRTC.create({ enableReconnectingState: true });
    this.chat = new RoomChat(this.trtc, params.userId);
    this.stats = new RoomStats(this.trtc);
    this.playback = new RemotePlayback(this.trtc);
    this.localMedia = new LocalMediaControls(this.trtc);
    this.effects = new EffectsControls(this.trtc, params);
    this.cdn = new CdnRelay(this.trtc);
    this.remote = new RemoteVideos({
      trtc: this.trtc, queues: this.queues, playback: this.playback,
      isDestroyed: () => this.destroyed, isClosing: () => this.closing,
      changed: () => this.changed(), notify: (title, error, vars) => this.notify(title, error, vars),
    });
    this.control = new RoomControl(this.trtc, params.userId, {
      onMuteRequest: () => {
        if (!this.micWanted) return;
        this.micWanted = false;
        this.syncMic();
        this.changed();
      },
      onInvite: () => {
        if (!this.handRaised) return false;
        this.changeRole('anchor', true);
        return true;
      },
    });
    if (params.devices) this.localMedia.preset(params.devices);
    this.snapshot = this.buildSnapshot();
    this.listen();
  }

  /** Called once if the session ends by itself (kicked out); after it, the instance is destroyed. */
  onEnded(handler: (end: SessionEnd) => void): void {
    this.endHandler = handler;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): SessionSnapshot => this.snapshot;

  /** enterRoom; on failure the instance is destroyed and the RtcError is rethrown. */
  async enter(): Promise<void> {
    const { sdkAppId, userId, userSig, room, scene } = this.params;
    const roomRef = room.kind === 'number' ? { roomId: room.roomId } : { strRoomId: room.strRoomId };
    const live = scene === 'live' ? { scene: TRTC.TYPE.SCENE_LIVE, role: this.role === 'audience' ? TRTC.TYPE.ROLE_AUDIENCE : TRTC.TYPE.ROLE_ANCHOR } : {};
    try {
      await this.trtc.enterRoom({ sdkAppId, userId, userSig, ...roomRef, ...live });
    } catch (error) {
      this.closing = true;
      this.destroyed = true;
      await settle(() => this.trtc.destroy(), 'destroy');
      throw error;
    }
    this.entered = true;
    if (!this.sawStateEvent) this.connectionState = 'CONNECTED';
    this.syncMic();
    this.syncCamera();
    this.changed();
  }

  /** Stops local media, exitRoom, destroy. Safe to call more than once. */
  leave(): Promise<void> {
    this.leaving ??= this.shutdown();
    return this.leaving;
  }

  /** The local preview element (`startLocalVideo` view); null on unmount. */
  readonly setLocalView = (view: HTMLElement | null): void => {
    this.localView = view;
    this.syncCamera();
  };

  /** The element a remote tile gives as view for its camera or screen share; null on unmount. */
  setRemoteView(userId: string, view: HTMLElement | null, kind: StreamKind = 'main'): void {
    this.remote.setView(userId, view, kind);
  }

  /**
   * Live scene: go on stage (an anchor; the camera and microphone chosen at join start and are published),
   * or back to the audience (publishing stops first).
   */
  switchRole(): void {
    if (this.params.scene !== 'live' || this.switchingRole || this.destroyed) return;
    if (this.role === 'anchor' && !this.handRaised) this.changeRole('audience', false);
    else this.changeRole('anchor', true);
  }

  /** Live: raise a hand (switch to anchor publishing nothing, then say so), or lower it (back to the audience). */
  toggleHand(): void {
    if (this.params.scene !== 'live' || this.switchingRole || this.destroyed) return;
    if (this.handRaised) {
      this.control.setMyHand(false);
      this.changeRole('audience', false);
    } else if (this.role === 'audience') {
      this.changeRole('anchor', false);
    }
  }

  private changeRole(target: Role, publish: boolean): void {
    this.switchingRole = true;
    this.changed();
    this.queues.enqueue('role', async () => {
      try {
        if (target === 'audience') {
          this.handRaised = false;
          this.cameraWanted = false;
          this.micWanted = false;
          this.syncCamera();
          this.syncMic();
        }
        if (this.role !== target) await this.trtc.switchRole(target === 'anchor' ? TRTC.TYPE.ROLE_ANCHOR : TRTC.TYPE.ROLE_AUDIENCE);
        this.role = target;
        if (target === 'anchor' && publish) {
          if (this.handRaised) this.control.setMyHand(false);
          this.handRaised = false;
          this.cameraWanted = this.params.camera;
          this.micWanted = this.params.mic;
          this.syncCamera();
          this.syncMic();
        } else if (target === 'anchor') {
          this.handRaised = true;
          this.control.setMyHand(true);
        }
      } catch (error) {
        this.notify('notice.switchingRole', error);
      } finally {
        this.switchingRole = false;
        this.changed();
      }
    });
  }

  toggleCamera(): void {
    this.cameraWanted = !this.cameraWanted;
    this.syncCamera();
    this.changed();
  }

  toggleMic(): void {
    this.micWanted = !this.micWanted;
    this.syncMic();
    this.changed();
  }

  /** muteRemoteAudio(userId, mute): this user is silenced here only. */
  setRemoteAudioMuted(userId: string, mute: boolean): void {
    this.remote.setAudioMuted(userId, mute);
  }

  dismissNotice(id: number): void {
    this.notices = this.notices.filter((notice) => notice.id !== id);
    this.changed();
  }

  private listen(): void {
    const { trtc } = this;
    const EVENT = TRTC.EVENT;
    trtc.on(EVENT.REMOTE_USER_ENTER, ({ userId }) => {
      if (this.destroyed) return;
      this.remote.ensure(userId);
      this.control.userEntered();
      this.changed();
    });
    trtc.on(EVENT.REMOTE_USER_EXIT, ({ userId }) => {
      if (this.destroyed) return;
      this.remote.remove(userId);
      this.control.clearHand(userId);
      this.changed();
    });
    trtc.on(EVENT.REMOTE_VIDEO_AVAILABLE, ({ userId, streamType }) => {
      if (this.destroyed) return;
      this.control.clearHand(userId);
      this.remote.videoAvailable(userId, streamType);
    });
    trtc.on(EVENT.REMOTE_VIDEO_UNAVAILABLE, ({ userId, streamType }) => {
      if (this.destroyed) return;
      this.remote.videoUnavailable(userId, streamType);
    });
    trtc.on(EVENT.REMOTE_AUDIO_AVAILABLE, ({ userId }) => {
      if (this.destroyed) return;
      this.remote.ensure(userId);
      this.control.clearHand(userId);
      this.remote.patch(userId, { audioAvailable: true });
    });
    trtc.on(EVENT.REMOTE_AUDIO_UNAVAILABLE, ({ userId }) => {
      if (this.destroyed) return;
      this.remote.patch(userId, { audioAvailable: false });
    });
    trtc.on(EVENT.AUDIENCE_COUNT_CHANGED, ({ count }) => {
      this.audienceCount = count;
      this.changed();
    });
    trtc.on(EVENT.CONNECTION_STATE_CHANGED, ({ state }) => {
      if (this.destroyed) return;
      this.sawStateEvent = true;
      this.connectionState = String(state);
      this.changed();
    });
    trtc.on(EVENT.ERROR, (error) => {
      if (this.destroyed) return;
      this.notify('notice.roomError', error);
    });
    trtc.on(EVENT.KICKED_OUT, ({ reason }) => {
      if (this.closing) return;
      const detail = String(reason);
      void this.leave().then(() => this.endHandler?.({ reason: 'kicked', detail }));
    });
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    this.control.close();
    this.syncCamera();
    this.syncMic();
    this.changed();
    await this.queues.drain(LEAVE_DRAIN_MS);
    await settle(() => this.trtc.exitRoom(), 'exitRoom');
    this.destroyed = true;
    await settle(() => this.trtc.destroy(), 'destroy');
    this.connectionState = 'DISCONNECTED';
    this.changed();
  }

  private syncCamera(): void {
    if (this.destroyed) return;
    this.queues.enqueue('camera', async () => {
      if (this.destroyed) return;
      const want = this.entered && !this.closing && this.cameraWanted ? this.localView : null;
      if (this.cameraIn && this.cameraIn !== want) {
        try {
          await this.trtc.stopLocalVideo();
        } catch (error) {
          this.notify('notice.stopCamera', error);
        }
        this.cameraIn = null;
        this.localMedia.setRunning('camera', false);
        this.changed();
      }
      if (want && !this.cameraIn) {
        try {
          await this.trtc.startLocalVideo({ ...this.localMedia.videoOptions(), view: want });
          this.cameraIn = want;
          this.localMedia.setRunning('camera', true);
        } catch (error) {
          this.cameraWanted = false;
          this.notify('notice.camera', error);
        }
        this.changed();
      }
    });
  }

  private syncMic(): void {
    if (this.destroyed) return;
    this.queues.enqueue('mic', async () => {
      if (this.destroyed) return;
      const want = this.entered && !this.closing && this.micWanted;
      if (this.micOn && !want) {
        try {
          await this.trtc.stopLocalAudio();
        } catch (error) {
          this.notify('notice.stopMic', error);
        }
        this.micOn = false;
        this.localMedia.setRunning('mic', false);
        this.changed();
      } else if (want && !this.micOn) {
        try {
          await this.trtc.startLocalAudio(this.localMedia.audioOptions());
          this.micOn = true;
          this.localMedia.setRunning('mic', true);
        } catch (error) {
          this.micWanted = false;
          this.notify('notice.microphone', error);
        }
        this.changed();
      }
    });
  }

  private notify(title: MessageKey, error: unknown, vars?: Readonly<Record<string, string>>): void {
    const device: DeviceWord = title === 'notice.microphone' || title === 'notice.stopMic' ? 'microphone' : title === 'notice.screenOf' ? 'screen' : 'camera';
    const notice: Notice = { id: this.nextNoticeId++, title, vars, error: describeError(error), device };
    this.notices = [...this.notices, notice].slice(-MAX_NOTICES);
    this.changed();
  }

  private buildSnapshot(): SessionSnapshot {
    const mediaState = (wanted: boolean, running: boolean): MediaState => {
      if (wanted && !this.closing) return running ? 'on' : 'starting';
      return running ? 'stopping' : 'off';
    };
    return {
      connectionState: this.connectionState,
      remoteUsers: this.remote.list(),
      camera: mediaState(this.cameraWanted, this.cameraIn !== null),
      mic: mediaState(this.micWanted, this.micOn),
      notices: this.notices,
      role: this.role,
      switchingRole: this.switchingRole,
      handRaised: this.handRaised,
      audienceCount: this.audienceCount,
    };
  }

  private changed(): void {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }
}
