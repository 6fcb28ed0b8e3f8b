import type { Size } from '../pipeline/stage.js';

/** Watermark size option, as the original's: a scale (0, 1], an explicit size, or fitted to the frame. */
export type WatermarkSize = number | { width?: number; height?: number } | 'contain' | 'cover';

/** Where the watermark is drawn, in frame pixels (top-left origin); the frame clips it. */
export interface WatermarkRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The original's placement: the image at (x, y), sized by `size` — a number scales the image, an object
 * sets the size, 'contain' / 'cover' fit the image's aspect to the frame (default 'cover').
 */
export function watermarkRect(image: Size, frame: Size, x: number, y: number, size: WatermarkSize = 'cover'): WatermarkRect {
  let width = image.width;
  let height = image.height;
  if (typeof size === 'object') {
    width = size.width || width;
    height = size.height || height;
  } else if (typeof size === 'number') {
    width = image.width * size;
    height = image.height * size;
  } else {
    const aspect = image.width / image.height;
    const wider = aspect > frame.width / frame.height;
    if (size === 'contain') {
      [width, height] = wider ? [frame.width, frame.width / aspect] : [frame.height * aspect, frame.height];
    } else {
      [width, height] = wider ? [frame.height * aspect, frame.height] : [frame.width, frame.width / aspect];
    }
  }
  return { x, y, width, height };
}
