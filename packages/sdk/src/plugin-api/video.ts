/**
 * The video part of the plugin context: the hook through which effect plugins put their pipeline between
 * the camera and the encoder (big and small stream, and the local preview), without renegotiation. The core
 * side (VideoBus) is owned by the client; LocalVideo attaches to it while the camera is on, and a camera
 * started after an effect goes through the effect too.
 */
import type { TrackProcessor } from '../media/track-processing.js';

/** The camera as video-effect plugins see it. */
export interface CameraInfo {
  /** The captured (or custom) camera track: the pipeline's source. */
  track: MediaStreamTrack;
  /** The track's size (else the profile's) and the profile's frame rate. */
  width: number;
  height: number;
  frameRate: number;
}

/** What a video plugin may do with the published camera. */
export interface VideoPluginContext {
  /** The camera while it is on, else undefined. */
  camera(): CameraInfo | undefined;
  /** The screen share's track while it is on (a VideoMixer source). */
  screenTrack(): MediaStreamTrack | undefined;
  /** The processor the camera goes through now (kept across camera restarts). */
  readonly cameraProcessor: TrackProcessor | undefined;
  /**
   * Routes the camera (big and small stream, and the local preview) through `processor`; undefined
   * restores the plain camera. A replaceTrack on the uplink senders, never a renegotiation.
   */
  setCameraProcessor(processor: TrackProcessor | undefined, functionName: string): Promise<void>;
  /**
   * Per-client storage shared by plugin files built separately (e.g. the one effect pipeline that
   * Watermark, BasicBeauty, VirtualBackground and VideoMixer stack their stages on).
   */
  readonly shared: Map<string, unknown>;
}

/** The camera side LocalVideo offers the bus. */
export interface CameraPort {
  readonly track: MediaStreamTrack;
  readonly profile: { width: number; height: number; frameRate: number };
  setProcessor(processor: TrackProcessor | undefined, functionName: string): Promise<void>;
}

/** The core side of the video context: LocalVideo attaches while the camera is on. */
export class VideoBus implements VideoPluginContext {
  readonly shared = new Map<string, unknown>();
  private _camera: CameraPort | undefined;
  private _processor: TrackProcessor | undefined;
  private readonly _screen: () => MediaStreamTrack | undefined;

  /** @param screen the screen share's track, if any (the client's getVideoTrack({ streamType: 'sub' })) */
  constructor(screen: () => MediaStreamTrack | undefined) {
    this._screen = screen;
  }

  /** LocalVideo: the camera started (it then goes through `cameraProcessor`). */
  attach(camera: CameraPort): void {
    this._camera = camera;
  }

  /** LocalVideo: the camera stopped. */
  detach(camera: CameraPort): void {
    if (this._camera === camera) this._camera = undefined;
  }

  camera(): CameraInfo | undefined {
    const camera = this._camera;
    if (!camera?.track || camera.track.readyState === 'ended') return undefined;
    const settings = camera.track.getSettings?.() ?? {};
    return { track: camera.track, width: settings.width ?? camera.profile.width, height: settings.height ?? camera.profile.height, frameRate: camera.profile.frameRate };
  }

  screenTrack(): MediaStreamTrack | undefined {
    const track = this._screen();
    return track && track.readyState !== 'ended' ? track : undefined;
  }

  get cameraProcessor(): TrackProcessor | undefined {
    return this._processor;
  }

  async setCameraProcessor(processor: TrackProcessor | undefined, functionName: string): Promise<void> {
    const previous = this._processor;
    this._processor = processor;
    try {
      await this._camera?.setProcessor(processor, functionName);
    } catch (error) {
      this._processor = previous;
      throw error;
    }
  }

  close(): void {
    this.shared.clear();
    this._camera = undefined;
    this._processor = undefined;
  }
}
