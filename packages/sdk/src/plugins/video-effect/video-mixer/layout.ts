import { EXTRA_CODE } from '../../../constants/error-code.js';
import { invalidParameter } from '../../../errors/catalogue.js';
import { requireObject } from '../pipeline/host.js';
import type { Size } from '../pipeline/stage.js';

/** How a source fills its rectangle (as the SDK's fillMode). */
export type LayerFillMode = 'contain' | 'cover' | 'fill';

/** A layer's place in the container, in container pixels (top-left origin). The original's LayerOption, extended. */
export interface LayerOption {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  /** Higher is drawn on top. */
  zOrder?: number;
  /** Mirrors the source horizontally. */
  mirror?: boolean;
  /** Default 'cover'. */
  fillMode?: LayerFillMode;
  /** Leaves the layer out. */
  hidden?: boolean;
  /** Turns the layer clockwise by 0, 90, 180 or 270 degrees (as 5.17); the fill mode fits the turned source. */
  rotation?: LayerRotation;
}

/** The turns a layer may take (clockwise degrees), as 5.17 allows. */
export type LayerRotation = 0 | 90 | 180 | 270;

/** An image layer. */
export interface ImageLayerOption extends LayerOption {
  url: string;
}

/** A text layer: drawn at (x, y), sized by its font. */
export interface TextLayerOption {
  content: string;
  x?: number;
  y?: number;
  /** A CSS font (default '24px sans-serif'). */
  font?: string;
  /** A CSS colour (default white). */
  color?: string;
  zOrder?: number;
  hidden?: boolean;
  /** Turns the text clockwise about its box (0, 90, 180 or 270 degrees). */
  rotation?: LayerRotation;
}

/** Another video track (e.g. a second camera) as a layer. */
export interface TrackLayerOption extends LayerOption {
  track: MediaStreamTrack;
}

/** Options of startPlugin / updatePlugin('VideoMixer', …): the original's {container, camera, screen}, plus images, texts, tracks. */
export interface VideoMixerOptions {
  container?: { width: number; height: number; backgroundColor?: string };
  camera?: LayerOption;
  screen?: LayerOption;
  images?: ImageLayerOption[];
  texts?: TextLayerOption[];
  tracks?: TrackLayerOption[];
}

/** A resolved rectangle. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const FILL_MODES: readonly unknown[] = ['contain', 'cover', 'fill'];
const ROTATIONS: readonly unknown[] = [0, 90, 180, 270];

function checkLayer(layer: unknown, name: string, fn: string): void {
  const option = requireObject(layer, name, fn);
  for (const key of ['x', 'y', 'zOrder']) {
    if (option[key] !== undefined && (typeof option[key] !== 'number' || !Number.isFinite(option[key]))) throw invalidParameter(EXTRA_CODE.TYPE, `${name}.${key} must be a number`, fn);
  }
  for (const key of ['width', 'height']) {
    if (option[key] === undefined) continue;
    if (typeof option[key] !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, `${name}.${key} must be a number`, fn);
    if (!((option[key] as number) >= 1)) throw invalidParameter(EXTRA_CODE.MIN, `${name}.${key} must be at least 1`, fn);
  }
  if (option.fillMode !== undefined && !FILL_MODES.includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, `${name}.fillMode must be 'contain', 'cover' or 'fill'`, fn);
  // 5.17 refuses other angles the same way.
  if (option.rotation !== undefined && !ROTATIONS.includes(option.rotation)) throw invalidParameter(EXTRA_CODE.RANGE, `${name}.rotation must be 0, 90, 180 or 270`, fn);
}

/** Checks the options (container required at start, as the original); INVALID_PARAMETER otherwise. */
export function validateMixerOptions(value: unknown, requireContainer: boolean, fn: string): VideoMixerOptions {
  const options = requireObject(value ?? {}, 'VideoMixerOptions', fn);
  if (options.container !== undefined || requireContainer) {
    if (options.container === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'container is required', fn);
    const container = requireObject(options.container, 'container', fn);
    for (const key of ['width', 'height']) {
      if (typeof container[key] !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, `container.${key} must be a number`, fn);
      if (!((container[key] as number) >= 1)) throw invalidParameter(EXTRA_CODE.MIN, `container.${key} must be at least 1`, fn);
    }
  }
  if (options.camera !== undefined) checkLayer(options.camera, 'camera', fn);
  if (options.screen !== undefined) checkLayer(options.screen, 'screen', fn);
  for (const [key, check] of [['images', (l: Record<string, unknown>) => typeof l.url === 'string' && l.url !== ''], ['texts', (l: Record<string, unknown>) => typeof l.content === 'string'],
    ['tracks', (l: Record<string, unknown>) => typeof MediaStreamTrack !== 'undefined' && l.track instanceof MediaStreamTrack]] as const) {
    const list = options[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalidParameter(EXTRA_CODE.TYPE, `${key} must be an array`, fn);
    list.forEach((layer, index) => {
      checkLayer(layer, `${key}[${index}]`, fn);
      if (!check(layer as Record<string, unknown>)) {
        throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `${key}[${index}] needs ${key === 'images' ? 'a url' : key === 'texts' ? 'a content string' : 'a video MediaStreamTrack'}`, fn);
      }
    });
  }
  return options as VideoMixerOptions;
}

/**
 * A layer's rectangle: given fields win; missing ones default to the whole container for the screen (and
 * the camera when there is no screen), or a quarter-size picture-in-picture at the bottom right for the
 * camera over a screen.
 */
export function layerRect(option: LayerOption | undefined, container: Size, pip: boolean): Rect {
  const width = option?.width ?? (pip ? Math.round(container.width / 4) : container.width);
  const height = option?.height ?? (pip ? Math.round(container.height / 4) : container.height);
  return {
    x: option?.x ?? (pip ? container.width - width : 0),
    y: option?.y ?? (pip ? container.height - height : 0),
    width,
    height,
  };
}

/**
 * uv scale and offset mapping a layer's own uv (0–1 over its rect) to the source: 'cover' crops, 'contain'
 * letterboxes (uv outside 0–1 is left empty), 'fill' stretches.
 */
export function fillTransform(source: Size, rect: Size, mode: LayerFillMode = 'cover'): [number, number, number, number] {
  if (mode === 'fill' || source.width === 0 || source.height === 0) return [1, 1, 0, 0];
  const sourceAspect = source.width / source.height;
  const rectAspect = rect.width / rect.height;
  // f: the share of the rect's width (or height) the source covers in contain, < 1.
  if (mode === 'cover') {
    if (sourceAspect > rectAspect) {
      const scale = rectAspect / sourceAspect;
      return [scale, 1, (1 - scale) / 2, 0];
    }
    const scale = sourceAspect / rectAspect;
    return [1, scale, 0, (1 - scale) / 2];
  }
  if (sourceAspect > rectAspect) {
    const f = rectAspect / sourceAspect;
    return [1, 1 / f, 0, -(1 - f) / (2 * f)];
  }
  const f = sourceAspect / rectAspect;
  return [1 / f, 1, -(1 - f) / (2 * f), 0];
}

/**
 * The size of a layer's rect as the upright source sees it: width and height swap for a quarter turn, so the
 * fill mode fits the turned source into the rect (as 5.17 does).
 */
export function uprightSize(rect: Size, rotation: LayerRotation = 0): Size {
  return rotation === 90 || rotation === 270 ? { width: rect.height, height: rect.width } : { width: rect.width, height: rect.height };
}

/**
 * Maps a point of the layer's rect (uv 0–1, v down) to the point of the upright picture drawn there when the
 * layer is turned clockwise by `rotation`: [a, b, c, d, tx, ty] with u' = a·u + b·v + tx, v' = c·u + d·v + ty.
 * A quarter turn puts the picture's top-left corner at the rect's top-right.
 */
export function rotationUv(rotation: LayerRotation = 0): [number, number, number, number, number, number] {
  switch (rotation) {
    case 90: return [0, 1, -1, 0, 0, 1];
    case 180: return [-1, 0, 0, -1, 1, 1];
    case 270: return [0, -1, 1, 0, 1, 0];
    default: return [1, 0, 0, 1, 0, 0];
  }
}

/** Parses a CSS hex colour (#rgb / #rrggbb) to 0–1 components; black otherwise. */
export function parseColor(color: string | undefined): [number, number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color ?? '')?.[1];
  if (!hex) return [0, 0, 0, 1];
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).concat(1) as [number, number, number, number];
}
