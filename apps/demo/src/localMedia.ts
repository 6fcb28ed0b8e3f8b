import TRTC from '@conclave/sdk';
import { explainError } from './errors';
import { getLang, translate, type MessageKey } from './i18n';
import type { LocalAudioConfig, LocalVideoConfig, VideoProfileName } from '@conclave/sdk';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/** publish-state-changed's last state per media type. */
export type PublishState = 'starting' | 'started' | 'stopped';
export type Mirror = 'view' | 'publish' | 'both' | 'none';

export interface DeviceOption {
  readonly deviceId: string;
  readonly label: string;
}

export interface LocalMediaSnapshot {
  readonly cameras: readonly DeviceOption[];
  readonly microphones: readonly DeviceOption[];
  readonly speakers: readonly DeviceOption[];
  readonly cameraId: string;
  readonly microphoneId: string;
  readonly speakerId: string;
  readonly profile: VideoProfileName;
  readonly mirror: Mirror;
  readonly smallStream: boolean;
  readonly videoMuted: boolean;
  readonly audioMuted: boolean;
  /** Screen share: off, starting, on, stopping. */
  readonly screen: 'off' | 'starting' | 'on' | 'stopping';
  readonly publish: Readonly<Record<'audio' | 'video' | 'screen', PublishState>>;
  /** The last device or screen-share failure, shown under the pickers. */
  readonly error: string | null;
}

export const PROFILES: readonly VideoProfileName[] = ['180p', '360p', '480p', '720p', '1080p'];

/**
 * The demo's publishing options: device pickers, camera profile, mirror, small stream, mute, screen
 * share and what publish-state-changed says. Applies changes with updateLocalVideo / updateLocalAudio
 * while the camera or microphone runs, and gives the session the options to start them with.
 */
export class LocalMediaControls {
  private readonly trtc: TRTCInstance;
  private readonly listeners = new Set<() => void>();
  private snapshot: LocalMediaSnapshot = {
    cameras: [], microphones: [], speakers: [], cameraId: '', microphoneId: '', speakerId: '',
    profile: '480p', mirror: 'view', smallStream: true, videoMuted: false, audioMuted: false, screen: 'off',
    publish: { audio: 'stopped', video: 'stopped', screen: 'stopped' }, error: null,
  };
  /** Whether the camera / microphone is running (told by the session). */
  private cameraRunning = false;
  private micRunning = false;

  constructor(trtc: TRTCInstance) {
    this.trtc = trtc;
    trtc.on('publish-state-changed', ({ mediaType, state }) => {
      this.update({ publish: { ...this.snapshot.publish, [mediaType]: state } });
    });
    trtc.on('device-changed', ({ type, action, device }) => {
      if (action === 'active') {
        if (type === 'camera') this.update({ cameraId: device.deviceId });
        if (type === 'microphone') this.update({ microphoneId: device.deviceId });
      } else {
        void this.refreshDevices();
      }
    });
    trtc.on('screen-share-stopped', () => this.update({ screen: 'off' }));
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): LocalMediaSnapshot => this.snapshot;

  private update(change: Partial<LocalMediaSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  private async run(what: MessageKey, call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      if (this.snapshot.error) this.update({ error: null });
      return true;
    } catch (error) {
      const device = what === 'media.screen' ? 'screen' : what === 'device.microphone' || what === 'media.micMute' ? 'microphone' : 'camera';
      const lang = getLang();
      this.update({ error: `${translate(lang, what)}: ${explainError(error, device, lang)}` });
      return false;
    }
  }

  /** Reads the device lists (without asking for permission: the session's capture does that). */
  async refreshDevices(): Promise<void> {
    // A list the browser refuses shows as empty: the picker then offers the default device only.
    const list = async (get: (ask: boolean) => Promise<MediaDeviceInfo[]>) => (await get(false).catch(() => []))
      .map((d) => ({ deviceId: d.deviceId, label: d.label }));
    const [cameras, microphones, speakers] = await Promise.all([
      list((ask) => TRTC.getCameraList(ask)), list((ask) => TRTC.getMicrophoneList(ask)), list((ask) => TRTC.getSpeakerList(ask)),
    ]);
    this.update({ cameras, microphones, speakers });
  }

  /** The options the session starts the camera with. */
  videoOptions(): LocalVideoConfig {
    const { cameraId, profile, mirror, smallStream, videoMuted } = this.snapshot;
    return {
      mute: videoMuted,
      option: { profile, mirror: mirror === 'none' ? false : mirror, small: smallStream, ...(cameraId ? { cameraId } : {}) },
    };
  }

  /** The options the session starts the microphone with. */
  audioOptions(): LocalAudioConfig {
    const { microphoneId, audioMuted } = this.snapshot;
    return { mute: audioMuted, option: microphoneId ? { microphoneId } : {} };
  }

  /** The devices picked before joining ('' = default). */
  preset(choice: { cameraId: string; microphoneId: string; speakerId: string }): void {
    this.update(choice);
  }

  /** The session tells when the camera / microphone starts or stops. */
  setRunning(kind: 'camera' | 'mic', running: boolean): void {
    if (kind === 'camera') this.cameraRunning = running;
    else this.micRunning = running;
    void this.refreshDevices();
  }

  async setCamera(cameraId: string): Promise<void> {
    const before = this.snapshot.cameraId;
    this.update({ cameraId });
    if (this.cameraRunning && !await this.run('device.camera', () => this.trtc.updateLocalVideo({ option: { cameraId } }))) this.update({ cameraId: before });
  }

  async setMicrophone(microphoneId: string): Promise<void> {
    const before = this.snapshot.microphoneId;
    this.update({ microphoneId });
    if (this.micRunning && !await this.run('device.microphone', () => this.trtc.updateLocalAudio({ option: { microphoneId } }))) this.update({ microphoneId: before });
  }

  async setSpeaker(speakerId: string): Promise<void> {
    if (await this.run('device.speaker', () => TRTC.setCurrentSpeaker(speakerId))) this.update({ speakerId });
  }

  async setProfile(profile: VideoProfileName): Promise<void> {
    this.update({ profile });
    if (this.cameraRunning) await this.run('media.profile', () => this.trtc.updateLocalVideo({ option: { profile } }));
  }

  async setMirror(mirror: Mirror): Promise<void> {
    this.update({ mirror });
    if (this.cameraRunning) await this.run('settings.mirror', () => this.trtc.updateLocalVideo({ option: { mirror: mirror === 'none' ? false : mirror } }));
  }

  /** The small stream can only change while the camera is off (not after publish: docs/behaviour.md §5.2). */
  setSmallStream(smallStream: boolean): void {
    if (!this.cameraRunning) this.update({ smallStream });
  }

  async toggleVideoMute(): Promise<void> {
    const videoMuted = !this.snapshot.videoMuted;
    if (!this.cameraRunning || await this.run('media.cameraMute', () => this.trtc.updateLocalVideo({ mute: videoMuted }))) this.update({ videoMuted });
  }

  async toggleAudioMute(): Promise<void> {
    const audioMuted = !this.snapshot.audioMuted;
    if (!this.micRunning || await this.run('media.micMute', () => this.trtc.updateLocalAudio({ mute: audioMuted }))) this.update({ audioMuted });
  }

  async toggleScreen(): Promise<void> {
    const { screen } = this.snapshot;
    if (screen === 'off') {
      this.update({ screen: 'starting' });
      const ok = await this.run('media.screen', () => this.trtc.startScreenShare({ option: { profile: '1080p' } }));
      this.update({ screen: ok ? 'on' : 'off' });
    } else if (screen === 'on') {
      this.update({ screen: 'stopping' });
      await this.run('media.screen', () => this.trtc.stopScreenShare());
      this.update({ screen: 'off' });
    }
  }
}
