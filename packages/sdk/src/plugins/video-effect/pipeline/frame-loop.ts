/** Chromium's insertable streams for raw video (not yet in TypeScript's DOM library). */
interface ProcessorCtor {
  new (init: { track: MediaStreamTrack; maxBufferSize?: number }): { readable: ReadableStream<VideoFrame> };
}
interface GeneratorCtor {
  new (init: { kind: 'video' }): MediaStreamTrack & { writable: WritableStream<VideoFrame> };
}

const insertable = globalThis as unknown as { MediaStreamTrackProcessor?: ProcessorCtor; MediaStreamTrackGenerator?: GeneratorCtor };

/** True where frames can be read from and written to tracks (MediaStreamTrackProcessor / Generator). */
export function hasInsertableStreams(): boolean {
  return typeof insertable.MediaStreamTrackProcessor === 'function' && typeof insertable.MediaStreamTrackGenerator === 'function'
    && typeof VideoFrame !== 'undefined' && typeof OffscreenCanvas !== 'undefined';
}

/** A running loop: source frames in, processed frames out on `track`. */
export interface FrameLoop {
  readonly track: MediaStreamTrack;
  stop(): void;
}

/**
 * The frame-by-frame loop with MediaStreamTrackProcessor / Generator (no timers: it keeps running in a
 * background tab). `render` draws a frame and returns the canvas holding the result, or undefined to drop
 * the frame.
 */
export function insertableLoop(source: MediaStreamTrack, render: (frame: VideoFrame) => CanvasImageSource | undefined): FrameLoop {
  const processor = new insertable.MediaStreamTrackProcessor!({ track: source, maxBufferSize: 1 });
  const generator = new insertable.MediaStreamTrackGenerator!({ kind: 'video' });
  const abort = new AbortController();
  let reported = false;
  const transform = new TransformStream<VideoFrame, VideoFrame>({
    transform(frame, controller) {
      let canvas: CanvasImageSource | undefined;
      try {
        canvas = render(frame);
      } catch (error) {
        // The frame is dropped (the track holds the last one). The loop's first failure is reported as an uncaught
        // error would be (the element loop's are uncaught), not every frame's.
        if (!reported) reportError(error);
        reported = true;
        canvas = undefined;
      }
      if (canvas) {
        const duration = frame.duration;
        controller.enqueue(new VideoFrame(canvas as OffscreenCanvas, { timestamp: frame.timestamp, ...(duration !== null ? { duration } : {}) }));
      }
      frame.close();
    },
  });
  processor.readable.pipeThrough(transform, { signal: abort.signal }).pipeTo(generator.writable, { signal: abort.signal }).catch(() => undefined); // ends with the abort or the track
  return {
    track: generator,
    stop() {
      abort.abort();
      generator.stop();
    },
  };
}

/**
 * The fallback loop: a <video> playing the source, redrawn on each new frame (requestVideoFrameCallback,
 * else a timer) onto an element canvas whose captureStream is the output.
 */
export function elementLoop(source: MediaStreamTrack, canvas: HTMLCanvasElement, frameRate: number,
  render: (video: HTMLVideoElement, timestamp: number) => void): FrameLoop {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = new MediaStream([source]);
  video.play().catch(() => undefined); // muted, so autoplay allows it; a play cut short means the source went first
  const track = canvas.captureStream(frameRate).getVideoTracks()[0];
  let stopped = false;
  const withCallback = video as HTMLVideoElement & { requestVideoFrameCallback?: (cb: () => void) => number };
  const tick = () => {
    if (stopped) return;
    if (video.videoWidth > 0) {
      try {
        render(video, performance.now() * 1000);
      } catch {
        // a failing frame is dropped; the next one is tried
      }
    }
    schedule();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (typeof withCallback.requestVideoFrameCallback === 'function') withCallback.requestVideoFrameCallback(tick);
    else timer = setTimeout(tick, 1000 / frameRate);
  };
  schedule();
  return {
    track,
    stop() {
      stopped = true;
      clearTimeout(timer);
      track.stop();
      video.srcObject = null;
    },
  };
}
