/**
 * How much of a spoken test sentence survives a call, scored by the offline recognizer live transcription uses
 * (PocketSphinx, packages/server/src/transcriber): the publisher's page speaks espeak-ng sentences (a WebAudio
 * track of a wav, played once on cue, so the receiver's window holds exactly that speech); the receiving page
 * records every remote audio track it plays (WebAudio at 16 kHz); the recognizer transcribes the recording and the
 * transcript is scored as word accuracy (1 − WER) against the sentences, the recognizer listening for the
 * sentences' words only (wordLoopGrammar: the open language model made clean runs too uneven to compare). A run on an impaired link is compared
 * with the clean run's accuracy (the recognizer's own errors cancel), as issue 43's goals read.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pocketsphinxRecognizer, wordErrorRate } from '@conclave/server';

/** Sentences PocketSphinx's US English model hears well from espeak-ng's en-us+m1 voice at 130 words a minute. */
export const SENTENCES = [
  'i would like a cup of coffee',
  'please send me the report',
  'the meeting starts in ten minutes',
  'please call a doctor',
  'open the door and turn on the light',
  'the children are playing in the garden',
];

export interface Speech {
  text: string;
  /** A 48 kHz mono 16-bit wav, base64 (for the page). */
  wavBase64: string;
  seconds: number;
}

/** Speaks `sentences` into one wav, each after 0.5 s and followed by 1.2 s of silence (the recognizer's sentence ends). */
export function makeSpeech(sentences: readonly string[] = SENTENCES): Speech {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-speech-'));
  try {
    const parts = sentences.map((s, i) => {
      const raw = join(dir, `s${i}.wav`);
      const padded = join(dir, `p${i}.wav`);
      execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '130', '-w', raw, s]);
      execFileSync('sox', [raw, '-r', '48000', '-c', '1', '-b', '16', padded, 'pad', '0.5', '1.2']);
      return padded;
    });
    const all = join(dir, 'all.wav');
    execFileSync('sox', [...parts, all]);
    const wav = readFileSync(all);
    return { text: sentences.join(' '), wavBase64: wav.toString('base64'), seconds: (wav.length - 44) / 96_000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Installs the speech in a publisher page: `window.__speech.track` is a live audio track (silent until play()),
 * for the SDK's custom audio track option (TRTC: startLocalAudio({option: {audioTrack}}); LiveKit: publishTrack).
 */
export async function installSpeech(page: Page, speech: Speech): Promise<void> {
  await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const ctx = new AudioContext({ sampleRate: 48_000 });
    await ctx.resume();
    const buffer = await ctx.decodeAudioData(bytes.buffer);
    const dest = ctx.createMediaStreamDestination();
    // A constant source of zeros keeps the track producing (silent) audio between and after the sentences: with
    // no input a WebAudio track sends nothing and the receiver's concealment would count the gap.
    const floor = ctx.createConstantSource();
    floor.offset.value = 0;
    floor.connect(dest);
    floor.start();
    const track = dest.stream.getAudioTracks()[0]!;
    (window as unknown as { __speech: unknown }).__speech = {
      track,
      play() {
        const source = ctx.createBufferSource();
        source.buffer = buffer;
        source.connect(dest);
        source.start();
        return buffer.duration;
      },
    };
  }, speech.wavBase64);
}

/** Starts the speech in the publisher page (resolves at once; it lasts speech.seconds). */
export async function playSpeech(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __speech: { play(): number } }).__speech.play());
}

/** Starts recording every remote audio track of the receiving page's peer connections (window.__pcs), mixed, at 16 kHz. */
export async function startRecording(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const w = window as unknown as { __pcs?: RTCPeerConnection[]; __recording?: { stop(): string } };
    const tracks = (w.__pcs ?? []).filter((pc) => pc.connectionState !== 'closed')
      .flatMap((pc) => pc.getReceivers().map((r) => r.track)).filter((t) => t.kind === 'audio' && t.readyState === 'live');
    const ctx = new AudioContext({ sampleRate: 16_000 });
    await ctx.resume();
    // A ScriptProcessor, not a worklet: no module to serve, and its 4096-sample blocks are fine for a recording.
    const processor = ctx.createScriptProcessor(4096, 1, 1);
    const chunks: Float32Array[] = [];
    processor.onaudioprocess = (e) => { chunks.push(new Float32Array(e.inputBuffer.getChannelData(0))); };
    for (const track of tracks) ctx.createMediaStreamSource(new MediaStream([track])).connect(processor);
    processor.connect(ctx.destination);
    w.__recording = {
      stop() {
        processor.disconnect();
        void ctx.close();
        const n = chunks.reduce((a, c) => a + c.length, 0);
        const pcm = new Int16Array(n);
        let o = 0;
        for (const c of chunks) for (const x of c) pcm[o++] = Math.max(-32768, Math.min(32767, Math.round(x * 32767)));
        let s = '';
        const bytes = new Uint8Array(pcm.buffer);
        for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(s);
      },
    };
    return tracks.length;
  });
}

/** Ends the recording: raw PCM, 16 kHz s16le mono. */
export async function stopRecording(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(() => (window as unknown as { __recording: { stop(): string } }).__recording.stop());
  return Buffer.from(b64, 'base64');
}

/**
 * A PocketSphinx finite-state grammar that is a loop over `vocabulary`'s words (any word, any order, uniform): the
 * recognizer hears only the test's words, so a clean run's transcript is near the text and damage shows as words
 * lost or swapped, where the model's open language model turned small differences of the audio into other
 * sentences (clean runs of the same speech scored 45–75 %).
 */
export function wordLoopGrammar(vocabulary: string): string {
  const words = [...new Set(vocabulary.toLowerCase().split(/[^a-z']+/).filter(Boolean))].sort();
  const p = (1 / words.length).toFixed(4);
  return ['FSG_BEGIN loop', 'NUM_STATES 2', 'START_STATE 0', 'FINAL_STATE 1', ...words.map((w) => `TRANSITION 0 1 ${p} ${w}`), 'TRANSITION 1 0 1.0', 'FSG_END', ''].join('\n');
}

/**
 * The recognizer's transcript of a recording (its final sentences, joined). With `vocabulary`, the recognizer
 * listens for those words only (wordLoopGrammar); without, with its model's open language model.
 */
export async function transcribe(pcm: Buffer, vocabulary?: string): Promise<string> {
  const finals: string[] = [];
  let failure: Error | undefined;
  let grammarDir: string | undefined;
  const args: string[] = [];
  if (vocabulary) {
    grammarDir = mkdtempSync(join(tmpdir(), 'conclave-fsg-'));
    writeFileSync(join(grammarDir, 'loop.fsg'), wordLoopGrammar(vocabulary));
    args.push('--fsg', join(grammarDir, 'loop.fsg'));
  }
  const stream = pocketsphinxRecognizer(args).open('en', {
    onResult: (r) => { if (r.type === 'final' && r.text) finals.push(r.text); },
    onError: (error) => { failure = error; },
  });
  try {
    await stream.ready;
    stream.write(pcm);
    await stream.end(60_000);
  } finally {
    if (grammarDir) rmSync(grammarDir, { recursive: true, force: true });
  }
  if (failure) throw failure;
  return finals.join(' ');
}

/** Word accuracy (1 − WER, floored at 0) of a transcript against the spoken text. */
export const wordAccuracy = (reference: string, transcript: string): number => Math.max(0, 1 - wordErrorRate(reference, transcript));
