/**
 * The level of a local microphone track without publishing it: a Web Audio analyser, created on
 * first use and released with stop(). Reads 0 where Web Audio is missing or not running.
 */
export class LocalMeter {
  #context: AudioContext | undefined;
  #source: MediaStreamAudioSourceNode | undefined;
  #analyser: AnalyserNode | undefined;
  #track: MediaStreamTrack | undefined;
  #samples: Float32Array<ArrayBuffer> | undefined;

  /** RMS level 0–1 of the track's most recent samples. */
  level(track: MediaStreamTrack): number {
    if (typeof AudioContext === 'undefined' || track.readyState !== 'live') return 0;
    if (track !== this.#track) this.#connect(track);
    const analyser = this.#analyser;
    const samples = this.#samples;
    if (!analyser || !samples || this.#context?.state !== 'running') return 0;
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.min(1, Math.sqrt(sum / samples.length));
  }

  #connect(track: MediaStreamTrack): void {
    this.#source?.disconnect();
    this.#track = track;
    try {
      this.#context ??= new AudioContext();
      if (this.#context.state === 'suspended') void this.#context.resume().catch(() => undefined);
      this.#analyser ??= this.#context.createAnalyser();
      this.#analyser.fftSize = 2048;
      this.#samples = new Float32Array(this.#analyser.fftSize);
      this.#source = this.#context.createMediaStreamSource(new MediaStream([track]));
      this.#source.connect(this.#analyser);
    } catch {
      this.#source = undefined;
    }
  }

  stop(): void {
    this.#source?.disconnect();
    this.#source = undefined;
    this.#track = undefined;
    void this.#context?.close().catch(() => undefined);
    this.#context = undefined;
    this.#analyser = undefined;
  }
}
