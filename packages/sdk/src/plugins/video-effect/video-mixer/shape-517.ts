/**
 * trtc-sdk-v5 5.17's VideoMixer option shape (`canvasInfo`, `camera[]`, `screen[]`, `text[]`, `image[]`,
 * `video[]`, each source with an `id` and a `layout`) beside the 5.11 one, and its result. Translated onto the
 * mixer Conclave has (one pipeline on the published camera): the first camera source without a track of its
 * own (and no other cameraId) is the published camera, the first screen source without one the client's
 * screen share; sources with a `videoTrack` are track layers; texts and images map one to one. What it cannot do yet is reported in the
 * result's `failedDetails` (the original's way to refuse a source while mixing the rest). Camera sources
 * naming another camera (`cameraId`), further `screen[]` entries and `video[]` files are captured / played by
 * the mixer (captures.ts), as the original's captureScreen does for each screen source.
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
  /** Clockwise turn of the source in its rect (other angles: INVALID_PARAMETER, as 5.17). */
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
  /** Where the mix is previewed locally (an element or its id): a playing <video> of the mixed track inside it; null removes it, an update may move it. */
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

/** True for options in 5.17's shape (a `canvasInfo`, a `view` — 5.11's shape has none — or any of its source lists). */
export function is517(options: unknown): options is UpdateVideoMixerOptions {
  if (typeof options !== 'object' || options === null) return false;
  return ['canvasInfo', 'view', 'text', 'image', 'video'].some((key) => key in options) || Array.isArray((options as { camera?: unknown }).camera) || Array.isArray((options as { screen?: unknown }).screen);
}

const layer = (l: LayerOption517): LayerOption => ({ x: l.x, y: l.y, width: l.width, height: l.height, zOrder: l.zIndex, fillMode: l.fillMode, mirror: l.mirror, hidden: l.hidden, rotation: l.rotation });

/** The source lists whose entries become track layers (each kept until a later call gives the list again). */
export type TrackListKey = 'camera' | 'screen' | 'video';

/** How the translation reaches the sources the mixer resolves itself. */
export interface SourceHooks {
  /** True when a camera source (without a track of its own) names the published camera (no cameraId, or its device). */
  isPublishedCamera(source: CameraSource): boolean;
  /** Captures another camera (by its cameraId). */
  captureCamera(source: CameraSource): Promise<MediaStreamTrack>;
  /** Captures another screen (getDisplayMedia, which asks the user). */
  captureScreen(source: ScreenSource): Promise<MediaStreamTrack>;
  /** Plays a video file and gives its picture as a track. */
  loadVideo(source: VideoSource): Promise<MediaStreamTrack>;
  /** Loads an image source (so a broken url is this source's failure, not the whole call's). */
  loadImage(source: ImageSource): Promise<void>;
}

/** The translation: mixer options, the track layers per list given, what was kept and refused. */
export interface Translated {
  options: VideoMixerOptions;
  trackLists: Partial<Record<TrackListKey, TrackLayerOption[]>>;
  success: UpdateVideoMixerOptions;
  failed: MixFailedDetail[];
  /** True when every source list given failed entirely: 5.17's "all sources mix failed". */
  allFailed: boolean;
}

/**
 * Translates 5.17 options to the mixer's, resolving the sources the mixer captures or loads itself; a source
 * that cannot be resolved is refused alone (in `failed`) and the rest are mixed, as the original does.
 */
export async function from517(options: UpdateVideoMixerOptions, hooks: SourceHooks, makeError: (id: string, message: string) => Error): Promise<Translated> {
  const failed: MixFailedDetail[] = [];
  const out: VideoMixerOptions = {};
  const success: UpdateVideoMixerOptions = { ...options };
  const trackLists: Translated['trackLists'] = {};
  let lists = 0;
  let listsFailed = 0;
  /** Resolves each source of a list; counts the list, and the list as failed when every source of it failed. */
  const each = async <S extends { id: string }>(sources: S[] | undefined, resolve: (source: S) => Promise<void>): Promise<S[] | undefined> => {
    if (!sources) return undefined;
    lists += 1;
    const kept: S[] = [];
    for (const source of sources) {
      try {
        await resolve(source);
        kept.push(source);
      } catch (error) {
        failed.push({ id: source.id, error: error instanceof Error && error.name === 'RtcError' ? error : makeError(source.id, error instanceof Error ? error.message : String(error)) });
      }
    }
    if (sources.length > 0 && kept.length === 0) listsFailed += 1;
    return kept;
  };
  if (options.canvasInfo) {
    const c = options.canvasInfo;
    out.container = { width: c.width, height: c.height, ...(typeof c.canvasColor === 'string' ? { backgroundColor: c.canvasColor } : {}) };
  }
  if (options.camera) {
    const tracks: TrackLayerOption[] = [];
    let published = false;
    success.camera = await each(options.camera, async (source) => {
      if (source.videoTrack) tracks.push({ ...layer(source.layout), track: source.videoTrack });
      else if (!published && hooks.isPublishedCamera(source)) {
        out.camera = layer(source.layout);
        published = true;
      } else tracks.push({ ...layer(source.layout), track: await hooks.captureCamera(source) });
    });
    // Only the listed cameras are in the mix: the published one too.
    if (!published) out.camera = { hidden: true };
    trackLists.camera = tracks;
  }
  if (options.screen) {
    const tracks: TrackLayerOption[] = [];
    let shared = false;
    success.screen = await each(options.screen, async (source) => {
      if (source.videoTrack) tracks.push({ ...layer(source.layout), track: source.videoTrack });
      else if (!shared) {
        out.screen = layer(source.layout);
        shared = true;
      } else tracks.push({ ...layer(source.layout), track: await hooks.captureScreen(source) });
    });
    trackLists.screen = tracks;
  }
  if (options.text) {
    success.text = await each(options.text, (t) => typeof t.content === 'string' ? Promise.resolve() : Promise.reject(new Error('a text source needs a content string')));
    out.texts = (success.text ?? []).map((t): TextLayerOption => ({ content: t.content, x: t.layout.x, y: t.layout.y, font: t.font, color: typeof t.color === 'string' ? t.color : undefined, zOrder: t.layout.zIndex, hidden: t.layout.hidden, rotation: t.layout.rotation }));
  }
  if (options.image) {
    success.image = await each(options.image, (source) => hooks.loadImage(source));
    out.images = (success.image ?? []).map((i): ImageLayerOption => ({ ...layer(i.layout), url: i.url }));
  }
  if (options.video) {
    const tracks: TrackLayerOption[] = [];
    success.video = await each(options.video, async (source) => {
      tracks.push({ ...layer(source.layout), track: await hooks.loadVideo(source) });
    });
    trackLists.video = tracks;
  }
  return { options: out, trackLists, success, failed, allFailed: lists > 0 && listsFailed === lists };
}
