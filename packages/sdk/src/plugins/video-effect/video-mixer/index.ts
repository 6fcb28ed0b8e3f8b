import { ERROR_CODE, EXTRA_CODE } from '../../../constants/error-code.js';
import { loadImage } from '../../../media/track-processing.js';
import type { PluginCore } from '../../../types.js';
import type { VideoPluginContext } from '../../../plugin-api/video.js';
import { FrameTap } from '../pipeline/frame-tap.js';
import { applyStage, guarded, pipelineOf, removeStage, requireCamera, videoContextOf } from '../pipeline/host.js';
import { layerRect, parseColor, uprightSize, validateMixerOptions, type TextLayerOption, type TrackLayerOption, type VideoMixerOptions } from './layout.js';
import { MixerStage, type MixerLayer, type MixerLayout } from './mixer-stage.js';
import { MixerCaptures } from './captures.js';
import { MixerPreview, previewTarget } from './preview.js';
import { from517, is517, type MixParseResult, type SourceHooks, type TrackListKey, type UpdateVideoMixerOptions, type VideoMixerOptions517 } from './shape-517.js';

export type { ImageLayerOption, LayerOption, TextLayerOption, TrackLayerOption, VideoMixerOptions as VideoMixerOptions511 } from './layout.js';
/** startPlugin('VideoMixer') options: the 5.11 shape ({container, camera, screen, …}) or 5.17's ({canvasInfo, camera[], …}). */
export type { VideoMixerOptionsAny as VideoMixerOptions };
type VideoMixerOptionsAny = VideoMixerOptions | VideoMixerOptions517;
export type {
  CameraSource, CanvasInfo, ImageSource, MixFailedDetail, MixParseResult, ScreenSource, TextSource, UpdateVideoMixerOptions,
  VideoMixerOptions517, VideoSource,
} from './shape-517.js';

/** The parts of the client's public API the mixer uses (as the original's plugin does). */
interface MixerClient {
  on(event: string, handler: (...args: never[]) => void, context?: unknown): unknown;
  off(event: string, handler: (...args: never[]) => void, context?: unknown): unknown;
  updateScreenShare(config: { publish: boolean }): Promise<void>;
  updateLocalVideo(config: { publish: boolean }): Promise<void>;
  getVideoTrack(query?: { processed?: boolean }): MediaStreamTrack | null;
}

/** Renders a text layer into a canvas sized to the text. */
function textImage(layer: TextLayerOption): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  const font = layer.font ?? '24px sans-serif';
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.font = font;
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 24);
  canvas.width = Math.max(1, Math.ceil(ctx.measureText(layer.content).width) + 4);
  canvas.height = Math.max(1, Math.ceil(size * 1.4));
  ctx.font = font;
  ctx.fillStyle = layer.color ?? '#ffffff';
  ctx.textBaseline = 'middle';
  ctx.fillText(layer.content, 2, canvas.height / 2);
  return canvas;
}

/**
 * VideoMixer: composes the camera, the screen share, images, texts and other tracks into the one published
 * camera stream, with a layout updated live (the original's "screen mix": the screen share is then not
 * published on its own).
 */
export class VideoMixer {
  static readonly Name = 'VideoMixer';
  private readonly _core: PluginCore;
  private _options: VideoMixerOptions = {};
  private _screenTap: FrameTap | undefined;
  private readonly _trackTaps = new Map<MediaStreamTrack, FrameTap>();
  private readonly _images = new Map<string, HTMLImageElement>();
  private _listening = false;
  /** 5.17's track layers per source list (a call replaces the lists it gives), and the mixer's own captures. */
  private _trackLists: Partial<Record<TrackListKey, TrackLayerOption[]>> = {};
  private readonly _captures = new MixerCaptures();
  /** 5.17's `view`: the local preview of the mix. */
  private readonly _preview = new MixerPreview();

  constructor(core: PluginCore) {
    this._core = core;
  }

  /** The name startPlugin refers to. */
  getName(): string {
    return VideoMixer.Name;
  }

  private get _client(): MixerClient {
    return this._core.client as MixerClient;
  }

  /**
   * Starts mixing (`container` required). The screen share, if published, is taken off its own stream.
   * 5.17's shape (`canvasInfo`, source lists) resolves with its MixParseResult (shape-517.ts).
   */
  start(options: VideoMixerOptions): Promise<void>;
  start(options: VideoMixerOptions517): Promise<MixParseResult>;
  start(options: VideoMixerOptions | VideoMixerOptions517): Promise<void | MixParseResult> {
    if (is517(options)) return this._run517(options, 'startPlugin', (o) => this._start(o));
    return guarded(this._core, () => this._start(options as VideoMixerOptions));
  }

  private _screenStop: ((id: string) => void) | undefined;

  /**
   * Runs a 5.17-shaped start / update through the mixer and builds its result. Sources are resolved one by
   * one (another camera captured, a video file played, an image loaded); one that fails is in failedDetails
   * and the rest are mixed; when every list given failed entirely: INVALID_PARAMETER "all sources mix
   * failed" with `data.failedDetails`, as 5.17.
   */
  private _run517(options: UpdateVideoMixerOptions, fn: string, run: (o: VideoMixerOptions) => Promise<void>): Promise<MixParseResult> {
    return guarded(this._core, async () => {
      const video = videoContextOf(this._core, fn);
      const starting = fn === 'startPlugin';
      if (starting) requireCamera(video, fn);
      const target = previewTarget(options.view, fn);
      const shared = options.screen?.find((source) => !source.videoTrack);
      if (shared) this._lastScreenId = shared.id;
      const translated = await from517(options, this._hooks(video, fn), (id, message) => this._core.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message: `VideoMixer source '${id}': ${message}`, functionName: fn }));
      if (translated.allFailed) {
        throw this._core.errors({ code: ERROR_CODE.INVALID_PARAMETER, message: 'all sources mix failed', data: { failedDetails: translated.failed }, functionName: fn });
      }
      if (starting) {
        this._screenStop = (options as VideoMixerOptions517).onScreenShareStop;
        this._trackLists = {};
        // 5.17 mixes only the sources listed: no camera[] leaves the published camera out.
        if (!options.camera) translated.options.camera = { hidden: true };
      }
      Object.assign(this._trackLists, translated.trackLists);
      translated.options.tracks = Object.values(this._trackLists).flat();
      for (const kind of ['camera', 'screen', 'video'] as const) {
        if (starting || translated.trackLists[kind]) this._captures.retain(kind, new Set((translated.success[kind] ?? []).map((source) => source.id)));
      }
      try {
        await run(translated.options);
      } catch (error) {
        // A start that fails keeps nothing the mixer captured for it.
        if (starting) this._captures.releaseAll();
        throw error;
      }
      const track = this._client.getVideoTrack({ processed: true }) ?? this._client.getVideoTrack();
      await this._preview.show(target, track);
      return { track: track as MediaStreamTrack, systemAudioTrackList: {}, result: { successOptions: translated.success, failedDetails: translated.failed } };
    });
  }

  /** How the 5.17 translation resolves the sources the mixer captures or loads itself. */
  private _hooks(video: VideoPluginContext, fn: string): SourceHooks {
    return {
      isPublishedCamera: (source) => !source.cameraId || source.cameraId === video.camera()?.track.getSettings?.().deviceId,
      captureCamera: (source) => this._captures.camera(source),
      captureScreen: (source) => this._captures.screen(source, (id) => this._screenStop?.(id)),
      loadVideo: (source) => this._captures.video(source),
      loadImage: async (source) => {
        if (!this._images.has(source.url)) this._images.set(source.url, await loadImage(source.url, fn));
      },
    };
  }

  private async _start(options: VideoMixerOptions): Promise<void> {
    const fn = 'startPlugin';
    const video = videoContextOf(this._core, fn);
    this._options = validateMixerOptions(options, true, fn);
    requireCamera(video, fn);
    await this._apply(video, fn);
    if (!this._listening) {
      this._listening = true;
      this._client.on('publish-state-changed', this._onPublishState);
      this._client.on('screen-share-stopped', this._onScreenStopped);
    }
    if (video.screenTrack()) await this._unpublishScreen();
  }

  /** Changes the layout live: given layer fields replace the previous ones, given lists replace theirs (5.17's shape too). */
  update(options: VideoMixerOptions): Promise<void>;
  update(options: UpdateVideoMixerOptions): Promise<MixParseResult>;
  update(options: VideoMixerOptions | UpdateVideoMixerOptions): Promise<void | MixParseResult> {
    if (is517(options)) return this._run517(options, 'updatePlugin', (o) => this._update(o));
    return guarded(this._core, () => this._update(options as VideoMixerOptions));
  }

  private async _update(options: VideoMixerOptions): Promise<void> {
    const fn = 'updatePlugin';
    const video = videoContextOf(this._core, fn);
    const next = validateMixerOptions(options, false, fn);
    const merged: VideoMixerOptions = { ...this._options, ...next };
    if (next.camera) merged.camera = { ...this._options.camera, ...next.camera };
    if (next.screen) merged.screen = { ...this._options.screen, ...next.screen };
    if (!merged.container) merged.container = validateMixerOptions(options, true, fn).container;
    this._options = merged;
    await this._apply(video, fn);
  }

  /** Stops mixing; a screen share goes back to its own stream. */
  stop(): Promise<void> {
    return guarded(this._core, () => this._stop());
  }

  private async _stop(): Promise<void> {
    const fn = 'stopPlugin';
    const video = videoContextOf(this._core, fn);
    if (this._listening) {
      this._listening = false;
      this._client.off('publish-state-changed', this._onPublishState);
      this._client.off('screen-share-stopped', this._onScreenStopped);
    }
    await removeStage(video, 'VideoMixer', fn);
    this._closeTaps(new Set());
    this._captures.releaseAll();
    this._preview.remove();
    this._trackLists = {};
    if (!video.screenTrack()) return;
    // The mixer is stopped whatever happens next; the app asked for the share back on its own stream, so a failure is its to hear.
    await this._client.updateScreenShare({ publish: true }).catch((error: unknown) => {
      this._core.log.warn('VideoMixer: publishing the screen share again on its own stream failed:', error);
      throw this._core.errors({ code: ERROR_CODE.OPERATION_FAILED, message: `the mixer stopped, but the screen share could not be published again on its own stream: ${error instanceof Error ? error.message : String(error)}`, functionName: fn });
    });
  }

  destroy(): void {
    this._closeTaps(new Set());
    this._captures.releaseAll();
    this._preview.remove();
  }

  private readonly _onPublishState = (event: { mediaType?: string; state?: string }) => {
    if (event.mediaType !== 'screen' || event.state !== 'started') return;
    void this._unpublishScreen();
    this._reapply('a screen share started');
  };

  private readonly _onScreenStopped = () => {
    this._screenStop?.(this._screenId());
    this._reapply('the screen share stopped');
  };

  /** Lays the mix out again after a change nobody awaits (a share started or stopped): a failure is logged. */
  private _reapply(why: string): void {
    void this._apply(videoContextOf(this._core, 'startPlugin'), 'startPlugin').catch((error: unknown) => {
      this._core.log.warn(`VideoMixer: laying the mix out again after ${why} failed:`, error);
    });
  }

  /** The 5.17 id of the screen source the client's screen share fills ('' in the 5.11 shape). */
  private _screenId(): string {
    return this._lastScreenId;
  }

  private _lastScreenId = '';

  /** The screen goes into the mix: its own stream stops and the mixed camera stream is published. Failures are logged. */
  private async _unpublishScreen(): Promise<void> {
    const warn = (what: string) => (error: unknown) => this._core.log.warn(`VideoMixer: ${what} failed:`, error);
    await this._client.updateScreenShare({ publish: false }).catch(warn('unpublishing the screen share (now in the mix)'));
    await this._client.updateLocalVideo({ publish: true }).catch(warn('publishing the mixed camera stream'));
  }

  private _closeTaps(keep: Set<MediaStreamTrack>): void {
    if (this._screenTap && !keep.has(this._screenTap.track)) {
      this._screenTap.close();
      this._screenTap = undefined;
    }
    for (const [track, tap] of this._trackTaps) {
      if (keep.has(track)) continue;
      tap.close();
      this._trackTaps.delete(track);
    }
  }

  /** Resolves the options into layers (loading images, tapping tracks) and puts them in the pipeline. */
  private async _apply(video: VideoPluginContext, fn: string): Promise<void> {
    const options = this._options;
    const container = { width: Math.round(options.container!.width), height: Math.round(options.container!.height) };
    const layers: MixerLayer[] = [];
    const keep = new Set<MediaStreamTrack>();
    const screenTrack = video.screenTrack();
    const showScreen = screenTrack !== undefined && !options.screen?.hidden;
    if (showScreen) {
      if (this._screenTap?.track !== screenTrack) {
        this._screenTap?.close();
        this._screenTap = new FrameTap(screenTrack);
      }
      keep.add(screenTrack);
      const s = options.screen;
      layers.push({ source: { kind: 'tap', tap: this._screenTap }, rect: layerRect(s, container, false), zOrder: s?.zOrder ?? 1, mirror: s?.mirror ?? false, fillMode: s?.fillMode ?? 'contain', rotation: s?.rotation ?? 0 });
    }
    const c = options.camera;
    if (!c?.hidden) {
      layers.push({ source: { kind: 'camera' }, rect: layerRect(c, container, showScreen && c?.width === undefined), zOrder: c?.zOrder ?? 2, mirror: c?.mirror ?? false, fillMode: c?.fillMode ?? 'cover', rotation: c?.rotation ?? 0 });
    }
    for (const layer of options.tracks ?? []) {
      if (layer.hidden || layer.track.readyState === 'ended') continue;
      let tap = this._trackTaps.get(layer.track);
      if (!tap) {
        tap = new FrameTap(layer.track);
        this._trackTaps.set(layer.track, tap);
      }
      keep.add(layer.track);
      layers.push({ source: { kind: 'tap', tap }, rect: layerRect(layer, container, true), zOrder: layer.zOrder ?? 2, mirror: layer.mirror ?? false, fillMode: layer.fillMode ?? 'cover', rotation: layer.rotation ?? 0 });
    }
    for (const layer of options.images ?? []) {
      if (layer.hidden) continue;
      let image = this._images.get(layer.url);
      if (!image) {
        image = await loadImage(layer.url, fn);
        this._images.set(layer.url, image);
      }
      const size = { width: image.naturalWidth, height: image.naturalHeight };
      layers.push({ source: { kind: 'image', image, size }, rect: layerRect({ width: size.width, height: size.height, ...layer, x: layer.x ?? 0, y: layer.y ?? 0 }, container, false), zOrder: layer.zOrder ?? 3, mirror: layer.mirror ?? false, fillMode: layer.fillMode ?? 'fill', rotation: layer.rotation ?? 0 });
    }
    for (const layer of options.texts ?? []) {
      if (layer.hidden) continue;
      const image = textImage(layer);
      const size = { width: image.width, height: image.height };
      layers.push({ source: { kind: 'image', image, size }, rect: { x: layer.x ?? 0, y: layer.y ?? 0, ...uprightSize(size, layer.rotation) }, zOrder: layer.zOrder ?? 4, mirror: false, fillMode: 'fill', rotation: layer.rotation ?? 0 });
    }
    layers.sort((a, b) => a.zOrder - b.zOrder);
    const layout: MixerLayout = { container, background: parseColor(options.container?.backgroundColor), layers };
    const pipeline = pipelineOf(video);
    const current = pipeline.stage<MixerStage>('VideoMixer');
    if (current) {
      current.layout = layout;
      current.prune(pipeline.renderer?.kit);
    } else {
      await applyStage(video, new MixerStage(layout), fn);
    }
    this._closeTaps(keep);
  }
}

export default VideoMixer;
