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
}

/** The core side of the audio context: the shared nodes LocalAudio's graph connects to. */
export class AudioBus implements AudioPluginContext {
  #ctx: AudioContext | undefined;
  #mixIn: GainNode | undefined;
  #mixCount = 0;
  #processor: AudioProcessorStage | null = null;
  #microphone = false;
  readonly #listeners = new Set<() => void>();

  audioContext(): AudioContext {
    if (!this.#ctx) {
      const ctx = new AudioContext({ sampleRate: 48000 });
      this.#ctx = ctx;
      // A context created without a user gesture starts suspended; resume on the next click.
      if (ctx.state === 'suspended') {
        ctx.resume().catch(() => undefined);
        document.addEventListener('click', () => void ctx.resume().catch(() => undefined), { once: true });
      }
    }
    return this.#ctx;
  }

  /** The node every mixed source feeds; LocalAudio's graph connects it to what is published. */
  get mixIn(): GainNode {
    this.#mixIn ??= this.audioContext().createGain();
    return this.#mixIn;
  }

  get processor(): AudioProcessorStage | null {
    return this.#processor;
  }

  /** True while some plugin uses the bus: the microphone must then go through the shared graph. */
  get active(): boolean {
    return this.#mixCount > 0 || this.#processor !== null;
  }

  mix(node: AudioNode): () => void {
    node.connect(this.mixIn);
    this.#mixCount += 1;
    this.#changed();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      node.disconnect(this.mixIn);
      this.#mixCount -= 1;
      this.#changed();
    };
  }

  setProcessor(stage: AudioProcessorStage | null): void {
    this.#processor = stage;
    this.#changed();
  }

  hasMicrophone(): boolean {
    return this.#microphone;
  }

  /** LocalAudio tells the bus whether a microphone is captured. */
  setMicrophone(on: boolean): void {
    this.#microphone = on;
  }

  /** LocalAudio listens for plugins attaching or detaching; returns the removal. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  close(): void {
    this.#listeners.clear();
    this.#ctx?.close().catch(() => undefined);
    this.#ctx = undefined;
    this.#mixIn = undefined;
  }
}
