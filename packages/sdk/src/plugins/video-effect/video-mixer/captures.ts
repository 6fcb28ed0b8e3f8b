/**
 * The sources VideoMixer captures itself for 5.17's option shape: another camera (`camera[]` with a
 * `cameraId` that is not the published camera's), another screen (a `screen[]` entry after the one the client
 * shares) and a video file (`video[]`: a looping, muted <video> of the
 * url, as the original's loadVideo makes it). Each becomes a video track the mixer draws as a track layer
 * (a FrameTap reads it). Kept per source id while its device / url stays the same; released when its id
 * leaves the list, and all on stop.
 */
import { VIDEO_PROFILES } from '../../../media/profiles.js';
import type { CameraSource, ScreenSource, VideoSource } from './shape-517.js';

/** The source lists whose entries the mixer may capture itself. */
export type CaptureKind = 'camera' | 'screen' | 'video';

interface Capture {
  /** What was captured (the camera id with its profile, or the url): a change means a new capture. */
  key: string;
  track: MediaStreamTrack;
  release(): void;
}

type CapturingVideo = HTMLVideoElement & { captureStream(): MediaStream };

/** Size and rate constraints of a source's profile (a profile name or its figures). */
function profileConstraints(profile: CameraSource['profile'] | ScreenSource['profile']): MediaTrackConstraints {
  const figures = typeof profile === 'string' ? VIDEO_PROFILES[profile] : profile;
  return figures ? { width: { ideal: figures.width }, height: { ideal: figures.height }, frameRate: { ideal: figures.frameRate } } : {};
}

/** getUserMedia constraints of a camera source: its device, and the profile's size and rate. */
function cameraConstraints(source: CameraSource): MediaTrackConstraints {
  return { deviceId: { exact: source.cameraId }, ...profileConstraints(source.profile) };
}

/** Plays the url in a detached, muted, looping <video>; resolves once it plays (rejects with its MediaError). */
function playVideo(url: string): Promise<CapturingVideo> {
  const video = document.createElement('video') as CapturingVideo;
  video.crossOrigin = 'anonymous';
  video.muted = true;
  video.loop = true;
  video.playsInline = true;
  return new Promise((resolve, reject) => {
    video.onerror = () => reject(new Error(`load video failed: ${url}${video.error?.message ? ` (${video.error.message})` : ''}`));
    video.src = url;
    video.play().then(() => resolve(video), (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
  });
}

/** The mixer's own captures, by source list and id. */
export class MixerCaptures {
  private readonly _captures = new Map<string, Capture>();

  /** The track of a camera source captured by its cameraId (reused while the id, device and profile stay). */
  async camera(source: CameraSource): Promise<MediaStreamTrack> {
    const constraints = cameraConstraints(source);
    return this._get('camera', source.id, JSON.stringify(constraints), async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: constraints, audio: false });
      const track = stream.getVideoTracks()[0];
      return { track, release: () => track.stop() };
    });
  }

  /**
   * The track of a screen source the mixer captures itself (reused while the id and profile stay). When the user
   * ends that capture, `onEnded` gets its id (5.17's onScreenShareStop).
   */
  async screen(source: ScreenSource, onEnded: (id: string) => void): Promise<MediaStreamTrack> {
    const constraints = profileConstraints(source.profile);
    return this._get('screen', source.id, JSON.stringify(constraints), async () => {
      const stream = await navigator.mediaDevices.getDisplayMedia({ video: constraints, audio: false });
      const track = stream.getVideoTracks()[0];
      const ended = () => onEnded(source.id);
      track.addEventListener('ended', ended);
      return { track, release: () => { track.removeEventListener('ended', ended); track.stop(); } };
    });
  }

  /** The track of a video file source: its playing <video>'s captured stream (reused while the id and url stay). */
  async video(source: VideoSource): Promise<MediaStreamTrack> {
    return this._get('video', source.id, source.url, async () => {
      const video = await playVideo(source.url);
      const release = () => {
        video.pause();
        video.removeAttribute('src');
        video.load();
      };
      const track = video.captureStream().getVideoTracks()[0] as MediaStreamTrack | undefined;
      if (!track) {
        release();
        throw new Error(`the video has no picture: ${source.url}`);
      }
      return { track, release: () => { track.stop(); release(); } };
    });
  }

  private async _get(kind: CaptureKind, id: string, key: string, make: () => Promise<Omit<Capture, 'key'>>): Promise<MediaStreamTrack> {
    const name = `${kind}:${id}`;
    const current = this._captures.get(name);
    if (current?.key === key && current.track.readyState === 'live') return current.track;
    const made = await make();
    current?.release();
    this._captures.set(name, { key, ...made });
    return made.track;
  }

  /** Releases the captures of a list whose ids are no longer in it. */
  retain(kind: CaptureKind, ids: ReadonlySet<string>): void {
    for (const [name, capture] of this._captures) {
      if (!name.startsWith(`${kind}:`) || ids.has(name.slice(kind.length + 1))) continue;
      capture.release();
      this._captures.delete(name);
    }
  }

  /** Releases every capture (the mixer stopped). */
  releaseAll(): void {
    for (const capture of this._captures.values()) capture.release();
    this._captures.clear();
  }
}
