import { invalidParameter } from '../errors/catalogue.js';
import { EXTRA_CODE } from '../constants/error-code.js';

/** A track made by the SDK from another source, with its release. */
export interface DerivedTrack {
  track: MediaStreamTrack;
  stop(): void;
}

/**
 * Turns the camera track into the track others receive (the video-effect pipeline a plugin installs).
 * Each call makes a new processed track for a (new) source; stopping it ends that one only.
 */
export interface TrackProcessor {
  process(source: MediaStreamTrack, options: { mirror: boolean; frameRate?: number }): DerivedTrack;
}

/** Chromium's insertable streams for raw media (not yet in TypeScript's DOM library). */
interface ProcessorCtor {
  new (init: { track: MediaStreamTrack }): { readable: ReadableStream<VideoFrame> };
}
interface GeneratorCtor {
  new (init: { kind: 'video' }): MediaStreamTrack & { writable: WritableStream<VideoFrame> };
}

/** How a derived camera track is turned: flipped horizontally, rotated clockwise. */
export interface Orientation {
  mirror: boolean;
  rotation: 0 | 90 | 180 | 270;
}

/** Draws `source` (w x h) turned as `o` on a canvas of the turned size. */
function drawOriented(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, canvas: { width: number; height: number },
  source: CanvasImageSource, w: number, h: number, o: Orientation): void {
  const turned = o.rotation === 90 || o.rotation === 270;
  const cw = turned ? h : w;
  const ch = turned ? w : h;
  if (canvas.width !== cw || canvas.height !== ch) {
    canvas.width = cw;
    canvas.height = ch;
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (o.mirror) {
    ctx.translate(cw, 0);
    ctx.scale(-1, 1);
  }
  ctx.translate(cw / 2, ch / 2);
  ctx.rotate((o.rotation * Math.PI) / 180);
  ctx.drawImage(source, -w / 2, -h / 2, w, h);
}

/**
 * A video track turned as `o` (mirror 'publish' / 'both', option.rotation): what others receive is flipped
 * and / or rotated. Uses Chromium's MediaStreamTrackProcessor / MediaStreamTrackGenerator (no timers, so it keeps
 * running in background tabs), else a canvas redrawn on a timer.
 */
export function orientTrack(source: MediaStreamTrack, o: Orientation): DerivedTrack {
  const g = globalThis as unknown as { MediaStreamTrackProcessor?: ProcessorCtor; MediaStreamTrackGenerator?: GeneratorCtor; OffscreenCanvas?: typeof OffscreenCanvas };
  if (g.MediaStreamTrackProcessor && g.MediaStreamTrackGenerator && g.OffscreenCanvas && typeof VideoFrame !== 'undefined') {
    const processor = new g.MediaStreamTrackProcessor({ track: source });
    const generator = new g.MediaStreamTrackGenerator({ kind: 'video' });
    const canvas = new OffscreenCanvas(2, 2);
    const ctx = canvas.getContext('2d');
    const abort = new AbortController();
    const turn = new TransformStream<VideoFrame, VideoFrame>({
      transform(frame, controller) {
        if (!ctx) {
          controller.enqueue(frame);
          return;
        }
        drawOriented(ctx, canvas, frame, frame.displayWidth, frame.displayHeight, o);
        const turned = new VideoFrame(canvas, { timestamp: frame.timestamp, ...(frame.duration !== null ? { duration: frame.duration } : {}) });
        frame.close();
        controller.enqueue(turned);
      },
    });
    processor.readable.pipeThrough(turn, { signal: abort.signal }).pipeTo(generator.writable, { signal: abort.signal }).catch(() => undefined); // ends with the abort or the track
    return {
      track: generator,
      stop() {
        abort.abort();
        generator.stop();
      },
    };
  }
  return canvasTrack(source.getSettings().frameRate ?? 15, (ctx, canvas, video) => {
    drawOriented(ctx, canvas, video, video.videoWidth || 2, video.videoHeight || 2, o);
  }, source);
}

/** The mirror image of a video track (orientTrack without rotation). */
export function mirrorTrack(source: MediaStreamTrack): DerivedTrack {
  return orientTrack(source, { mirror: true, rotation: 0 });
}

/** A canvas track redrawn on a timer from an optional source video. */
function canvasTrack(frameRate: number, draw: (ctx: CanvasRenderingContext2D, canvas: HTMLCanvasElement, video: HTMLVideoElement) => void,
  source?: MediaStreamTrack): DerivedTrack {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  if (source) {
    video.srcObject = new MediaStream([source]);
    video.play().catch(() => undefined); // muted, so autoplay allows it; a play cut short means the source went first
  }
  const stream = canvas.captureStream(frameRate);
  const timer = setInterval(() => {
    if (ctx) draw(ctx, canvas, video);
  }, 1000 / frameRate);
  if (ctx) draw(ctx, canvas, video);
  const track = stream.getVideoTracks()[0];
  return {
    track,
    stop() {
      clearInterval(timer);
      track.stop();
      video.srcObject = null;
    },
  };
}

/** Loads an image; INVALID_PARAMETER 'load image failed' with the url when it cannot. */
export function loadImage(url: string, functionName: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.crossOrigin = 'anonymous';
    image.onload = () => resolve(image);
    image.onerror = () => reject(invalidParameter(EXTRA_CODE.TYPE, `load image failed: ${url}`, functionName));
    image.src = url;
  });
}

/** A video track showing a still image at the given size (mute with an image URL), redrawn at 5 fps. */
export async function imageTrack(url: string, width: number, height: number, functionName: string): Promise<DerivedTrack> {
  const image = await loadImage(url, functionName);
  return canvasTrack(5, (ctx, canvas) => {
    canvas.width = width;
    canvas.height = height;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, width, height);
    const scale = Math.min(width / image.naturalWidth, height / image.naturalHeight);
    const w = image.naturalWidth * scale;
    const h = image.naturalHeight * scale;
    ctx.drawImage(image, (width - w) / 2, (height - h) / 2, w, h);
  });
}
