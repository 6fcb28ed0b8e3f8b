/**
 * The plugins' shared audio nodes as the microphone's graph uses them (the plugin API's AudioBus): media sits below
 * the plugin API, which builds on it.
 */
export interface AudioBus {
  audioContext(): AudioContext;
  readonly mixIn: GainNode;
  /** A plugin's processing stage on the microphone path, if any. */
  readonly processor: { readonly input: AudioNode; readonly output: AudioNode } | null;
}

/**
 * The microphone's Web Audio path: source → [plugin processor] → capture gain → the published track, and
 * the same → ear-monitor gain → the speakers. Extra sources (screen-share system audio) and the plugins' mix
 * bus (background music) are mixed into the published track.
 */
export class AudioGraph {
  private readonly _ctx: AudioContext;
  private readonly _gain: GainNode;
  private readonly _monitor: GainNode;
  private readonly _destination: MediaStreamAudioDestinationNode;
  private _source: MediaStreamAudioSourceNode | undefined;
  private readonly _extras = new Map<MediaStreamTrack, MediaStreamAudioSourceNode>();

  private readonly _bus: AudioBus | undefined;

  constructor(track: MediaStreamTrack, sampleRate = 48000, bus?: AudioBus) {
    this._bus = bus;
    // With plugins, the graph lives in their shared context so their nodes can connect to it.
    this._ctx = bus ? bus.audioContext() : new AudioContext({ sampleRate });
    this._gain = this._ctx.createGain();
    this._monitor = this._ctx.createGain();
    this._monitor.gain.value = 0;
    this._destination = this._ctx.createMediaStreamDestination();
    this._gain.connect(this._destination);
    this._monitor.connect(this._ctx.destination);
    bus?.mixIn.connect(this._destination);
    this.setSource(track);
    // A context created without a user gesture starts suspended; resume on the next click.
    if (this._ctx.state === 'suspended') {
      this._ctx.resume().catch(() => undefined); // refused without a gesture: the click below resumes it
      const resume = () => {
        this._ctx.resume().catch(() => undefined); // refused again: the next capture's context tries anew
      };
      document.addEventListener('click', resume, { once: true });
    }
  }

  /** The track to publish. */
  get output(): MediaStreamTrack {
    return this._destination.stream.getAudioTracks()[0];
  }

  /** Feeds the graph from another microphone track (device switch, recovery). */
  setSource(track: MediaStreamTrack): void {
    this._source?.disconnect();
    this._source = this._ctx.createMediaStreamSource(new MediaStream([track]));
    this.rewire();
  }

  /** Routes the microphone through the plugins' processor, if any (after one is set or removed). */
  rewire(): void {
    const source = this._source;
    if (!source) return;
    source.disconnect();
    const stage = this._bus?.processor;
    if (stage) {
      source.connect(stage.input);
      stage.output.disconnect();
      stage.output.connect(this._gain);
      stage.output.connect(this._monitor);
    } else {
      source.connect(this._gain);
      source.connect(this._monitor);
    }
  }

  /** captureVolume in percent (100 = unchanged). */
  setCaptureVolume(percent: number): void {
    this._gain.gain.value = percent / 100;
  }

  /** earMonitorVolume 0–100 (0 = off). */
  setEarMonitorVolume(percent: number): void {
    this._monitor.gain.value = percent / 100;
  }

  /** Mixes another audio track into the published one. */
  addExtra(track: MediaStreamTrack): void {
    if (this._extras.has(track)) return;
    const node = this._ctx.createMediaStreamSource(new MediaStream([track]));
    node.connect(this._destination);
    this._extras.set(track, node);
  }

  removeExtra(track: MediaStreamTrack): void {
    this._extras.get(track)?.disconnect();
    this._extras.delete(track);
  }

  close(): void {
    this.output.stop();
    this._source?.disconnect();
    this._bus?.processor?.output.disconnect();
    if (this._bus) this._bus.mixIn.disconnect(this._destination);
    else this._ctx.close().catch(() => undefined); // closed already: nothing to release
  }
}
