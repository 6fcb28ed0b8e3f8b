/**
 * trtc-sdk-v5 5.17's VideoMixer option shape (`canvasInfo`, `camera[]`, `screen[]`, `text[]`, `image[]`,
 * `video[]`, each source with an `id` and a `layout`) beside the 5.11 one, and its result. Translated onto the
 * mixer Conclave has (one pipeline on the published camera): the first camera source without a track of its
 * own is the published camera, the first screen source without one the client's screen share; sources with a
 * `videoTrack` are track layers; texts and images map one to one. What it cannot do yet is reported in the
 * result's `failedDetails` (the original's way to refuse a source while mixing the rest): a second camera or
 * screen capture by the plugin, `video[]` (video file sources).
 */
import type { ImageLayerOption, LayerOption, TextLayerOption, TrackLayerOption, VideoMixerOptions } from './layout.js';

/** 5.17's layer placement. */
export interface LayerOption517 {
  x: number;
  y: number;
  width: number;
  height: number;
  zIndex: number;
  fillMode?: 'contain' | 'cover' | 'fill';
  mirror?: boolean;
  /** Accepted; not applied yet (layers are drawn upright). */
  rotation?: 0 | 90 | 180 | 270;
  hidden?: boolean;
}

/** The mix canvas. */
export interface CanvasInfo {
  canvasColor?: string | CanvasGradient | CanvasPattern;
  width: number;
  height: number;
  frameRate?: number;
}

export interface CameraSource {
  id: string;
  cameraId?: string;
  videoTrack?: MediaStreamTrack;
  profile?: string | { width: number; height: number; frameRate: number; bitrate: number };
  layout: LayerOption517;
  useInternalTrack?: boolean;
}

export interface ScreenSource {
  id: string;
  profile?: string | { width: number; height: number; frameRate: number; bitrate: number };
  captureElement?: HTMLElement;
  preferDisplaySurface?: 'current-tab' | 'tab' | 'window' | 'monitor';
  layout: LayerOption517;
  systemAudio?: boolean;
  videoTrack?: MediaStreamTrack;
  audioTrack?: MediaStreamTrack;
  useInternalTrack?: boolean;
}

export interface TextSource {
  id: string;
  content: string;
  font?: string;
  color?: string | CanvasGradient | CanvasPattern;
  layout: LayerOption517;
}

export interface ImageSource {
  id: string;
  url: string;
  layout: LayerOption517;
}

export interface VideoSource {
  id: string;
  url: string;
  layout: LayerOption517;
}

/** 5.17's start options. */
export interface VideoMixerOptions517 {
  /** Accepted; no local preview of the mix is drawn (the published camera's own view shows it). */
  view?: string | HTMLElement | null;
  canvasInfo: CanvasInfo;
  camera?: CameraSource[];
  screen?: ScreenSource[];
  text?: TextSource[];
  image?: ImageSource[];
  video?: VideoSource[];
  onScreenShareStop?: (id: string) => void;
}

/** 5.17's update options (the canvas optional). */
export type UpdateVideoMixerOptions = Partial<Omit<VideoMixerOptions517, 'onScreenShareStop'>>;

export interface MixFailedDetail {
  id: string;
  error: Error;
}

/** What start / update resolve with in the 5.17 shape. */
export interface MixParseResult {
  track: MediaStreamTrack;
  systemAudioTrackList: Record<string, MediaStreamTrack>;
  result: {
    successOptions: VideoMixerOptions517 | UpdateVideoMixerOptions;
    failedDetails: MixFailedDetail[];
  };
}

/** True for options in 5.17's shape (a `canvasInfo`, or any of its source lists). */
export function is517(options: unknown): options is UpdateVideoMixerOptions {
  if (typeof options !== 'object' || options === null) return false;
  return ['canvasInfo', 'text', 'image', 'video'].some((key) => key in options) || Array.isArray((options as { camera?: unknown }).camera) || Array.isArray((options as { screen?: unknown }).screen);
}

const layer = (l: LayerOption517): LayerOption => ({ x: l.x, y: l.y, width: l.width, height: l.height, zOrder: l.zIndex, fillMode: l.fillMode, mirror: l.mirror, hidden: l.hidden });

/** Translates 5.17 options to the mixer's, with the sources it refuses and the ones it took. */
export function from517(options: UpdateVideoMixerOptions, makeError: (id: string, message: string) => Error): { options: VideoMixerOptions; success: UpdateVideoMixerOptions; failed: MixFailedDetail[] } {
  const failed: MixFailedDetail[] = [];
  const out: VideoMixerOptions = {};
  const success: UpdateVideoMixerOptions = { ...options };
  if (options.canvasInfo) {
    const c = options.canvasInfo;
    out.container = { width: c.width, height: c.height, ...(typeof c.canvasColor === 'string' ? { backgroundColor: c.canvasColor } : {}) };
  }
  const tracks: TrackLayerOption[] = [];
  const refuse = (id: string, message: string) => failed.push({ id, error: makeError(id, message) });
  if (options.camera) {
    const kept: CameraSource[] = [];
    let published = false;
    for (const source of options.camera) {
      if (source.videoTrack) tracks.push({ ...layer(source.layout), track: source.videoTrack });
      else if (!published) {
        out.camera = layer(source.layout);
        published = true;
      } else {
        refuse(source.id, 'a second camera capture by the mixer is not supported yet: pass its videoTrack');
        continue;
      }
      kept.push(source);
    }
    success.camera = kept;
  }
  if (options.screen) {
    const kept: ScreenSource[] = [];
    let shared = false;
    for (const source of options.screen) {
      if (source.videoTrack) tracks.push({ ...layer(source.layout), track: source.videoTrack });
      else if (!shared) {
        out.screen = layer(source.layout);
        shared = true;
      } else {
        refuse(source.id, 'a second screen capture by the mixer is not supported yet: pass its videoTrack');
        continue;
      }
      kept.push(source);
    }
    success.screen = kept;
  }
  if (options.text) {
    out.texts = options.text.map((t): TextLayerOption => ({ content: t.content, x: t.layout.x, y: t.layout.y, font: t.font, color: typeof t.color === 'string' ? t.color : undefined, zOrder: t.layout.zIndex, hidden: t.layout.hidden }));
  }
  if (options.image) out.images = options.image.map((i): ImageLayerOption => ({ ...layer(i.layout), url: i.url }));
  if (options.video) {
    for (const v of options.video) refuse(v.id, 'video file sources are not supported by Conclave\'s mixer yet');
    success.video = [];
  }
  if (tracks.length > 0 || options.camera || options.screen) out.tracks = tracks;
  return { options: out, success, failed };
}
