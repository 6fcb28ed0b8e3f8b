/**
 * The recognizer seam of live transcription (docs/architecture.md "Live transcription"): what turns a user's
 * speech (16 kHz mono PCM, decoded from the RTP the media engine forwards) into partial and final sentences. One
 * implementation ships (PocketSphinx, offline, with Debian's English model); an operator plugs another by
 * implementing `Recognizer`, or — without code — by naming a program that speaks the line protocol
 * (`LineRecognizer`, CONCLAVE_TRANSCRIBER_COMMAND).
 */

/** The audio a recognizer takes: signed 16-bit little-endian samples, this rate, one channel. */
export const RECOGNIZER_SAMPLE_RATE = 16_000;
/** Bytes of PCM per second of audio. */
export const PCM_BYTES_PER_SECOND = RECOGNIZER_SAMPLE_RATE * 2;

/** One guess of the recognizer. Times are seconds of audio since the stream's first byte. */
export type RecognitionResult =
  | { type: 'partial'; text: string; start: number }
  | { type: 'final'; text: string; start: number; end: number };

/** One speaker's audio going through a recognizer. */
export interface RecognitionStream {
  /** Feeds PCM (RECOGNIZER_SAMPLE_RATE, s16le, mono); any chunk size. */
  write(pcm: Buffer): void;
  /** Resolves once the model is loaded and audio is being recognised; rejects when it cannot start. */
  readonly ready: Promise<void>;
  /**
   * Ends the input: the sentence in progress is finalised; resolves when the recognizer has exited, or after
   * `graceMs` (then it is stopped, with whatever it had not reported yet).
   */
  end(graceMs?: number): Promise<void>;
  /** Stops at once (nothing more is reported). */
  close(): void;
}

/** What a recognizer reports on a stream. */
export interface RecognitionListener {
  onResult(result: RecognitionResult): void;
  /** The recognizer failed after it was ready (its process died); the stream is over. */
  onError(error: Error): void;
}

/** A speech recognizer a transcriber can use. */
export interface Recognizer {
  /** A name for logs and metrics ('pocketsphinx'). */
  readonly name: string;
  /**
   * The model's language for a requested `sourceLanguage` (the SDK's value: 'en', 'en-US', the original's
   * '16k_en' …), or undefined when this recognizer has no model for it.
   */
  language(sourceLanguage: string): string | undefined;
  /** Opens a stream for one speaker. */
  open(language: string, listener: RecognitionListener): RecognitionStream;
}

/** The primary language subtag of a requested language ('16k_en', 'en-US', 'EN_gb' → 'en'). */
export function primaryLanguage(sourceLanguage: string): string {
  return sourceLanguage.trim().toLowerCase().replace(/^\d+k_/, '').split(/[-_]/)[0] ?? '';
}
