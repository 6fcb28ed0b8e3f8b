import { hasInsertableStreams } from './frame-loop.js';

interface ProcessorCtor {
  new (init: { track: MediaStreamTrack; maxBufferSize?: number }): { readable: ReadableStream<VideoFrame> };
}

/**
 * The latest frame of another video track (a VideoMixer source such as the screen share), read beside the
 * pipeline's own loop: with MediaStreamTrackProcessor where available, else from a playing <video>.
 */
export class FrameTap {
  readonly track: MediaStreamTrack;
  /** Increments with each new frame. */
  version = 0;
  #frame: VideoFrame | undefined;
  #video: HTMLVideoElement | undefined;
  #reader: ReadableStreamDefaultReader<VideoFrame> | undefined;
  #closed = false;

  constructor(track: MediaStreamTrack) {
    this.track = track;
    const Processor = (globalThis as unknown as { MediaStreamTrackProcessor?: ProcessorCtor }).MediaStreamTrackProcessor;
    if (hasInsertableStreams() && Processor) {
      this.#reader = new Processor({ track, maxBufferSize: 1 }).readable.getReader();
      void this.#pump();
    } else {
      const video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.srcObject = new MediaStream([track]);
      video.play().catch(() => undefined);
      this.#video = video;
    }
  }

  async #pump(): Promise<void> {
    while (!this.#closed && this.#reader) {
      const { value, done } = await this.#reader.read().catch(() => ({ value: undefined, done: true }));
      if (done || !value) break;
      this.#frame?.close();
      this.#frame = value;
      this.version += 1;
      if (this.#closed) value.close();
    }
  }

  /** The latest frame (valid until the next one), or undefined before the first. */
  get image(): (TexImageSource & CanvasImageSource) | undefined {
    if (this.#video) {
      this.version += 1; // a <video> cannot tell a new frame: upload each time
      return this.#video.videoWidth > 0 ? this.#video : undefined;
    }
    return this.#frame;
  }

  /** The source size (0 before the first frame). */
  get size(): { width: number; height: number } {
    if (this.#video) return { width: this.#video.videoWidth, height: this.#video.videoHeight };
    return { width: this.#frame?.displayWidth ?? 0, height: this.#frame?.displayHeight ?? 0 };
  }

  close(): void {
    this.#closed = true;
    this.#reader?.cancel().catch(() => undefined);
    this.#frame?.close();
    this.#frame = undefined;
    if (this.#video) this.#video.srcObject = null;
  }
}
