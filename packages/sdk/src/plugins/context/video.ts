import type { LocalVideo } from '../../media/local-video.js';
import type { ScreenShare } from '../../media/screen-share.js';
import type { TrackProcessor } from '../../media/track-processing.js';

/** The camera as video-effect plugins see it. */
export interface CameraInfo {
  /** The captured (or custom) camera track: the pipeline's source. */
  track: MediaStreamTrack;
  /** The profile's size and frame rate. */
  width: number;
  height: number;
  frameRate: number;
}

/**
 * The video part of the plugin context: the hook through which effect plugins put their pipeline between
 * the camera and the encoder. The core imports no effect; plugins bring the pipeline and install it here.
 */
export interface VideoContext {
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

/** What the video context needs from the client. */
export interface VideoContextDeps {
  camera(): LocalVideo | undefined;
  screen(): ScreenShare | undefined;
}

/**
 * Makes a client's video context. The client's LocalMediaEnv.videoProcessor should return
 * `context.cameraProcessor`, so a restarted camera goes through the effects again.
 */
export function createVideoContext(deps: VideoContextDeps): VideoContext {
  let processor: TrackProcessor | undefined;
  return {
    camera() {
      const video = deps.camera();
      if (!video?.track || video.track.readyState === 'ended') return undefined;
      const settings = video.track.getSettings?.() ?? {};
      return {
        track: video.track,
        width: settings.width ?? video.profile.width,
        height: settings.height ?? video.profile.height,
        frameRate: video.profile.frameRate,
      };
    },
    screenTrack() {
      const track = deps.screen()?.track;
      return track && track.readyState !== 'ended' ? track : undefined;
    },
    get cameraProcessor() {
      return processor;
    },
    async setCameraProcessor(next, functionName) {
      processor = next;
      await deps.camera()?.setProcessor(next, functionName);
    },
    shared: new Map(),
  };
}
