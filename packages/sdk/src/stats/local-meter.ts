/**
 * The level of a local microphone track without publishing it: a Web Audio analyser, created on
 * first use and released with stop(). Reads 0 where Web Audio is missing or not running.
 */
export class LocalMeter {
  private _context: AudioContext | undefined;
  private _source: MediaStreamAudioSourceNode | undefined;
  private _analyser: AnalyserNode | undefined;
  private _track: MediaStreamTrack | undefined;
  private _samples: Float32Array<ArrayBuffer> | undefined;

  /** RMS level 0–1 of the track's most recent samples. */
  level(track: MediaStreamTrack): number {
    if (typeof AudioContext === 'undefined' || track.readyState !== 'live') return 0;
    if (track !== this._track) this._connect(track);
    const analyser = this._analyser;
    const samples = this._samples;
    if (!analyser || !samples || this._context?.state !== 'running') return 0;
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.min(1, Math.sqrt(sum / samples.length));
  }

  private _connect(track: MediaStreamTrack): void {
    this._source?.disconnect();
    this._track = track;
    try {
      this._context ??= new AudioContext();
      if (this._context.state === 'suspended') void this._context.resume().catch(() => undefined); // refused without a gesture: the level reads 0 until a later resume
      this._analyser ??= this._context.createAnalyser();
      this._analyser.fftSize = 2048;
      this._samples = new Float32Array(this._analyser.fftSize);
      this._source = this._context.createMediaStreamSource(new MediaStream([track]));
      this._source.connect(this._analyser);
    } catch {
      this._source = undefined; // no audio graph here: the level reads 0
    }
  }

  stop(): void {
    this._source?.disconnect();
    this._source = undefined;
    this._track = undefined;
    void this._context?.close().catch(() => undefined); // closed already: nothing to release
    this._context = undefined;
    this._analyser = undefined;
  }
}
