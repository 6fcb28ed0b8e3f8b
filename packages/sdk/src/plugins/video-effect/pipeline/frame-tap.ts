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
  private _frame: VideoFrame | undefined;
  private _video: HTMLVideoElement | undefined;
  private _reader: ReadableStreamDefaultReader<VideoFrame> | undefined;
  private _closed = false;

  constructor(track: MediaStreamTrack) {
    this.track = track;
    const Processor = (globalThis as unknown as { MediaStreamTrackProcessor?: ProcessorCtor }).MediaStreamTrackProcessor;
    if (hasInsertableStreams() && Processor) {
      this._reader = new Processor({ track, maxBufferSize: 1 }).readable.getReader();
      void this._pump();
    } else {
      const video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.srcObject = new MediaStream([track]);
      video.play().catch(() => undefined); // muted, so autoplay allows it; a play cut short means the track went first
      this._video = video;
    }
  }

  private async _pump(): Promise<void> {
    while (!this._closed && this._reader) {
      const { value, done } = await this._reader.read().catch(() => ({ value: undefined, done: true })); // the track ended or the tap closed: the pump stops
      if (done || !value) break;
      this._frame?.close();
      this._frame = value;
      this.version += 1;
      if (this._closed) value.close();
    }
  }

  /** The latest frame (valid until the next one), or undefined before the first. */
  get image(): (TexImageSource & CanvasImageSource) | undefined {
    if (this._video) {
      this.version += 1; // a <video> cannot tell a new frame: upload each time
      return this._video.videoWidth > 0 ? this._video : undefined;
    }
    return this._frame;
  }

  /** The source size (0 before the first frame). */
  get size(): { width: number; height: number } {
    if (this._video) return { width: this._video.videoWidth, height: this._video.videoHeight };
    return { width: this._frame?.displayWidth ?? 0, height: this._frame?.displayHeight ?? 0 };
  }

  close(): void {
    this._closed = true;
    this._reader?.cancel().catch(() => undefined); // cancelled or ended already
    this._frame?.close();
    this._frame = undefined;
    if (this._video) this._video.srcObject = null;
  }
}
