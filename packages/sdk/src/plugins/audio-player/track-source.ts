/**
 * A track player: the app's audio track into the plugin's graph (`output`) from start() to stop(). Pause silences
 * it in the graph (the original disables the app's track; the app's track is left as it is here).
 */
export class TrackSource {
  readonly output: GainNode;
  private readonly _ctx: AudioContext;
  private readonly _track: MediaStreamTrack;
  private _source: MediaStreamAudioSourceNode | undefined;
  private readonly _hold: GainNode;
  private _paused = false;

  constructor(ctx: AudioContext, track: MediaStreamTrack) {
    this._ctx = ctx;
    this._track = track;
    this._hold = ctx.createGain();
    this.output = ctx.createGain();
    this._hold.connect(this.output);
  }

  get track(): MediaStreamTrack {
    return this._track;
  }

  get isStop(): boolean {
    return !this._source;
  }

  get isPause(): boolean {
    return this._paused;
  }

  start(): void {
    if (this._source) return;
    this._source = this._ctx.createMediaStreamSource(new MediaStream([this._track]));
    this._source.connect(this._hold);
  }

  pause(): void {
    this._paused = true;
    this._hold.gain.value = 0;
  }

  resume(): void {
    this._paused = false;
    this._hold.gain.value = 1;
  }

  stop(): void {
    this._source?.disconnect();
    this._source = undefined;
  }

  destroy(): void {
    this.stop();
    this._hold.disconnect();
    this.output.disconnect();
  }
}
