/**
 * The audio part of the plugin context: how a plugin inserts processing into, or mixes sound into, what the
 * microphone publishes (and the local ear path), without renegotiation (the uplink's sender gets a new track
 * by replaceTrack). The core side (AudioBus) is owned by the client; LocalAudio routes the microphone through
 * it whenever a plugin uses it, whether the microphone starts before or after the plugin.
 */

/** A processing stage inserted between the microphone and what is published (e.g. a denoiser). */
export interface AudioProcessorStage {
  input: AudioNode;
  output: AudioNode;
}

/** What an audio plugin may do with the published microphone audio. */
export interface AudioPluginContext {
  /** The Web Audio context the microphone graph runs in (created on first use, shared by all audio plugins). */
  audioContext(): AudioContext;
  /** Mixes a node's output into what the microphone publishes; returns its removal. */
  mix(node: AudioNode): () => void;
  /** Inserts (or, with null, removes) the processing stage on the microphone path. */
  setProcessor(stage: AudioProcessorStage | null): void;
  /** True while a microphone is captured (startLocalAudio done, not stopped). */
  hasMicrophone(): boolean;
  /** The processing stage on the microphone path now (another plugin's, or null): one at a time. */
  currentProcessor(): AudioProcessorStage | null;
}

/** The core side of the audio context: the shared nodes LocalAudio's graph connects to. */
export class AudioBus implements AudioPluginContext {
  private _ctx: AudioContext | undefined;
  private _mixIn: GainNode | undefined;
  private _mixCount = 0;
  private _processor: AudioProcessorStage | null = null;
  private _microphone = false;
  private readonly _listeners = new Set<() => void>();

  audioContext(): AudioContext {
    if (!this._ctx) {
      const ctx = new AudioContext({ sampleRate: 48000 });
      this._ctx = ctx;
      // A context created without a user gesture starts suspended; resume on the next click.
      if (ctx.state === 'suspended') {
        ctx.resume().catch(() => undefined); // refused without a gesture: the click below resumes it
        document.addEventListener('click', () => void ctx.resume().catch(() => undefined), { once: true }); // refused again: the plugin's next start tries anew
      }
    }
    return this._ctx;
  }

  /** The node every mixed source feeds; LocalAudio's graph connects it to what is published. */
  get mixIn(): GainNode {
    this._mixIn ??= this.audioContext().createGain();
    return this._mixIn;
  }

  get processor(): AudioProcessorStage | null {
    return this._processor;
  }

  /** True while some plugin uses the bus: the microphone must then go through the shared graph. */
  get active(): boolean {
    return this._mixCount > 0 || this._processor !== null;
  }

  mix(node: AudioNode): () => void {
    node.connect(this.mixIn);
    this._mixCount += 1;
    this._changed();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      node.disconnect(this.mixIn);
      this._mixCount -= 1;
      this._changed();
    };
  }

  setProcessor(stage: AudioProcessorStage | null): void {
    this._processor = stage;
    this._changed();
  }

  hasMicrophone(): boolean {
    return this._microphone;
  }

  currentProcessor(): AudioProcessorStage | null {
    return this._processor;
  }

  /** LocalAudio tells the bus whether a microphone is captured. */
  setMicrophone(on: boolean): void {
    this._microphone = on;
  }

  /** LocalAudio listens for plugins attaching or detaching; returns the removal. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  private _changed(): void {
    for (const listener of this._listeners) listener();
  }

  close(): void {
    this._listeners.clear();
    this._ctx?.close().catch(() => undefined); // closed already: nothing to release
    this._ctx = undefined;
    this._mixIn = undefined;
  }
}
