import type { RtpForward } from '../engine/media-engine.js';
import { PCM_BYTES_PER_SECOND, type RecognitionResult, type RecognitionStream, type Recognizer } from './recognizer.js';
import { RtpAudioDecoder } from './rtp-audio-decoder.js';

/** A pause in the audio (no RTP: muted, or the sender stopped) longer than this ends the sentence in progress. */
const GAP_MS = 600;
/** The silence fed after such a pause: longer than the recognizer's end-of-sentence hangover (PocketSphinx: 0.5 s). */
const GAP_FILL_BYTES = PCM_BYTES_PER_SECOND;
/** How long a stopping speaker's recognizer may take to report the sentence in progress (it may be behind). */
const STOP_GRACE_MS = 3000;
/** How much of the audio-time → wall-clock map is kept (chunks). */
const CLOCK_CHUNKS = 4000;

/** A sentence as the speaker's recognizer reports it, with wall-clock times. */
export interface SpeakerResult {
  /** 1, 2, … per speaker: partials and the final of one sentence share it. */
  sentence: number;
  text: string;
  final: boolean;
  /** When the sentence began (ms since the epoch). */
  startedAt: number;
  /** A final: when its last audio reached the server (ms since the epoch). */
  endedAt?: number;
}

/** What a speaker tells its transcriber. */
export interface SpeakerListener {
  onResult(result: SpeakerResult): void;
  /** The decoder or the recognizer died; the speaker is over. */
  onFailure(reason: string): void;
}

/**
 * One transcribed user: the media engine's RTP feed → RtpAudioDecoder → the recognizer's stream, with the
 * recognizer's audio times turned into wall-clock times (audio time skips the pauses in which nothing came).
 */
export class Speaker {
  readonly participantId: string;
  readonly #decoder: RtpAudioDecoder;
  readonly #stream: RecognitionStream;
  #forward: RtpForward | undefined;
  #bytes = 0;
  /** [byte offset, wall clock ms] of each chunk written. */
  #clock: [number, number][] = [];
  #lastPcmAt = 0;
  #gapFilled = true;
  #gapTimer: ReturnType<typeof setInterval>;
  #sentence = 0;
  #inSentence = false;
  #closed = false;
  /** Set when stop() begins: the decoder and the recognizer then end on purpose, not as failures. */
  #ending = false;
  /** Seconds of audio fed to the recognizer. */
  get audioSeconds(): number {
    return this.#bytes / PCM_BYTES_PER_SECOND;
  }

  private constructor(participantId: string, decoder: RtpAudioDecoder, stream: RecognitionStream) {
    this.participantId = participantId;
    this.#decoder = decoder;
    this.#stream = stream;
    this.#gapTimer = setInterval(() => this.#fillGap(), GAP_MS / 3);
    this.#gapTimer.unref();
  }

  /**
   * Starts the decoder and the recognizer, then asks the engine for the participant's audio (`forward` gets the
   * decoder's port). Rejects when the recognizer does not start.
   */
  static async start(participantId: string, recognizer: Recognizer, language: string, forward: (port: number) => RtpForward, listener: SpeakerListener): Promise<Speaker> {
    // The callbacks are wired before the speaker exists (the decoder may deliver audio first).
    const self: { speaker?: Speaker } = {};
    const pending: Buffer[] = [];
    const decoder = await RtpAudioDecoder.open(
      (pcm) => { if (self.speaker) self.speaker.#write(pcm); else pending.push(pcm); },
      (reason) => { if (self.speaker && !self.speaker.#ending) listener.onFailure(reason); },
    );
    const stream = recognizer.open(language, {
      onResult: (result) => { if (self.speaker) self.speaker.#onResult(result, listener); },
      onError: (error) => { if (self.speaker && !self.speaker.#ending) listener.onFailure(error.message); },
    });
    try {
      await stream.ready;
    } catch (error) {
      stream.close();
      await decoder.close();
      throw error;
    }
    const speaker = new Speaker(participantId, decoder, stream);
    self.speaker = speaker;
    for (const chunk of pending) speaker.#write(chunk);
    speaker.#forward = forward(decoder.port);
    return speaker;
  }

  /** RTP packets received so far. */
  get packets(): number {
    return this.#decoder.packets;
  }

  /** Feeds the recognizer; `real` false for the silence fed after a pause. */
  #write(pcm: Buffer, real = true): void {
    if (this.#closed) return;
    this.#clock.push([this.#bytes, Date.now()]);
    if (this.#clock.length > CLOCK_CHUNKS) this.#clock.splice(0, this.#clock.length - CLOCK_CHUNKS / 2);
    this.#bytes += pcm.length;
    if (real) {
      this.#lastPcmAt = Date.now();
      this.#gapFilled = false;
    }
    this.#stream.write(pcm);
  }

  /** Once per pause in the audio (GAP_MS without any) during a sentence: silence, so the sentence ends. */
  #fillGap(): void {
    if (this.#gapFilled || !this.#inSentence || Date.now() - this.#lastPcmAt < GAP_MS) return;
    this.#gapFilled = true;
    this.#write(Buffer.alloc(GAP_FILL_BYTES), false);
  }

  /** The wall-clock time at which the audio at `seconds` reached the server. */
  #wallClock(seconds: number): number {
    const offset = seconds * PCM_BYTES_PER_SECOND;
    let found = this.#clock[0];
    for (const entry of this.#clock) {
      if (entry[0] > offset) break;
      found = entry;
    }
    if (!found) return Date.now();
    return found[1] + ((offset - found[0]) / PCM_BYTES_PER_SECOND) * 1000;
  }

  #onResult(result: RecognitionResult, listener: SpeakerListener): void {
    if (!this.#inSentence) {
      this.#sentence++;
      this.#inSentence = true;
    }
    const startedAt = Math.round(this.#wallClock(result.start));
    if (result.type === 'partial') {
      listener.onResult({ sentence: this.#sentence, text: result.text, final: false, startedAt });
      return;
    }
    this.#inSentence = false;
    listener.onResult({ sentence: this.#sentence, text: result.text, final: true, startedAt, endedAt: Math.round(this.#wallClock(result.end)) });
  }

  /** Stops the feed; the sentence in progress is finalised (reported) before this resolves, if the recognizer manages within STOP_GRACE_MS. */
  async stop(): Promise<void> {
    this.#ending = true;
    this.#forward?.stop();
    this.#forward = undefined;
    clearInterval(this.#gapTimer);
    await this.#decoder.close();
    await this.#stream.end(STOP_GRACE_MS);
    this.#closed = true;
  }

  /** Stops at once, reporting nothing more (a failed speaker, or one that started after its robot stopped). */
  close(): void {
    this.#ending = true;
    this.#closed = true;
    this.#forward?.stop();
    clearInterval(this.#gapTimer);
    this.#stream.close();
    void this.#decoder.close();
  }
}
