import type { AudioBus } from '../plugins/context/audio.js';

/**
 * The microphone's Web Audio path: source → [plugin processor] → capture gain → the published track, and
 * the same → ear-monitor gain → the speakers. Extra sources (screen-share system audio) and the plugins' mix
 * bus (background music) are mixed into the published track.
 */
export class AudioGraph {
  readonly #ctx: AudioContext;
  readonly #gain: GainNode;
  readonly #monitor: GainNode;
  readonly #destination: MediaStreamAudioDestinationNode;
  #source: MediaStreamAudioSourceNode | undefined;
  readonly #extras = new Map<MediaStreamTrack, MediaStreamAudioSourceNode>();

  readonly #bus: AudioBus | undefined;

  constructor(track: MediaStreamTrack, sampleRate = 48000, bus?: AudioBus) {
    this.#bus = bus;
    // With plugins, the graph lives in their shared context so their nodes can connect to it.
    this.#ctx = bus ? bus.audioContext() : new AudioContext({ sampleRate });
    this.#gain = this.#ctx.createGain();
    this.#monitor = this.#ctx.createGain();
    this.#monitor.gain.value = 0;
    this.#destination = this.#ctx.createMediaStreamDestination();
    this.#gain.connect(this.#destination);
    this.#monitor.connect(this.#ctx.destination);
    bus?.mixIn.connect(this.#destination);
    this.setSource(track);
    // A context created without a user gesture starts suspended; resume on the next click.
    if (this.#ctx.state === 'suspended') {
      this.#ctx.resume().catch(() => undefined);
      const resume = () => {
        this.#ctx.resume().catch(() => undefined);
      };
      document.addEventListener('click', resume, { once: true });
    }
  }

  /** The track to publish. */
  get output(): MediaStreamTrack {
    return this.#destination.stream.getAudioTracks()[0];
  }

  /** Feeds the graph from another microphone track (device switch, recovery). */
  setSource(track: MediaStreamTrack): void {
    this.#source?.disconnect();
    this.#source = this.#ctx.createMediaStreamSource(new MediaStream([track]));
    this.rewire();
  }

  /** Routes the microphone through the plugins' processor, if any (after one is set or removed). */
  rewire(): void {
    const source = this.#source;
    if (!source) return;
    source.disconnect();
    const stage = this.#bus?.processor;
    if (stage) {
      source.connect(stage.input);
      stage.output.disconnect();
      stage.output.connect(this.#gain);
      stage.output.connect(this.#monitor);
    } else {
      source.connect(this.#gain);
      source.connect(this.#monitor);
    }
  }

  /** captureVolume in percent (100 = unchanged). */
  setCaptureVolume(percent: number): void {
    this.#gain.gain.value = percent / 100;
  }

  /** earMonitorVolume 0–100 (0 = off). */
  setEarMonitorVolume(percent: number): void {
    this.#monitor.gain.value = percent / 100;
  }

  /** Mixes another audio track into the published one. */
  addExtra(track: MediaStreamTrack): void {
    if (this.#extras.has(track)) return;
    const node = this.#ctx.createMediaStreamSource(new MediaStream([track]));
    node.connect(this.#destination);
    this.#extras.set(track, node);
  }

  removeExtra(track: MediaStreamTrack): void {
    this.#extras.get(track)?.disconnect();
    this.#extras.delete(track);
  }

  close(): void {
    this.output.stop();
    this.#source?.disconnect();
    this.#bus?.processor?.output.disconnect();
    if (this.#bus) this.#bus.mixIn.disconnect(this.#destination);
    else this.#ctx.close().catch(() => undefined);
  }
}
