/**
 * Live transcription benchmark: one transcribed speaker through the server's own chain (Speaker: the RTP audio
 * decoder and the PocketSphinx recognizer), fed opus RTP in real time by a synthetic sender (gst-launch playing
 * an espeak-ng sentence, repeated with pauses). Measures the decoder's and the recognizer's CPU per second of
 * audio (utime+stime from /proc), the latency from the end of each sentence's speech reaching the server to its
 * final sentence, and the word accuracy of the finals.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pocketsphinxRecognizer } from '../../packages/server/src/transcriber/line-recognizer.js';
import { Speaker } from '../../packages/server/src/transcriber/speaker.js';
import { wordErrorRate } from '../../packages/server/src/transcriber/word-error-rate.js';
import { childrenCpuMs } from './proc.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const SENTENCE = 'please call a doctor';

export interface TranscriberBenchResult {
  sentences: number;
  finals: number;
  audioSeconds: number;
  /** Decoder + recognizer CPU ms per second of audio. */
  cpuMsPerAudioSecond: number;
  recognizerCpuMsPerAudioSecond: number;
  /** End of speech reaching the server → final sentence, per final (ms). */
  latenciesMs: number[];
  /** Mean word accuracy of the finals after the first (1 − WER). */
  wordAccuracy: number;
}

export async function runTranscriber(options: { repetitions: number }): Promise<TranscriberBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-bench-asr-'));
  try {
    execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '130', '-w', join(dir, 'say.wav'), SENTENCE]);
    const cycle = join(dir, 'cycle.wav');
    execFileSync('sox', [join(dir, 'say.wav'), '-r', '48000', '-c', '1', '-b', '16', cycle, 'pad', '0.5', '2', 'repeat', String(options.repetitions - 1)]);
    const finals: { text: string; latency: number }[] = [];
    let done!: () => void;
    const allDone = new Promise<void>((resolve) => { done = resolve; });
    let sender: ReturnType<typeof spawn> | undefined;
    const speaker = await Speaker.start('bench', pocketsphinxRecognizer(), 'en', (port) => {
      sender = spawn('gst-launch-1.0', ['-q', 'filesrc', `location=${cycle}`, '!', 'wavparse', '!', 'audioconvert', '!', 'audioresample', '!',
        'audio/x-raw,rate=48000,channels=1', '!', 'opusenc', '!', 'rtpopuspay', 'pt=111', '!', 'udpsink', 'host=127.0.0.1', `port=${port}`, 'sync=true'], { stdio: 'ignore' });
      return { requestKeyframe: () => undefined, stop: () => sender?.kill('SIGKILL') };
    }, {
      onResult: (result) => {
        if (!result.final || !result.text) return;
        finals.push({ text: result.text, latency: Date.now() - (result.endedAt ?? Date.now()) });
        progress(`transcriber: final ${finals.length}/${options.repetitions} "${result.text}"`);
        if (finals.length >= options.repetitions) done();
      },
      onFailure: (reason) => progress(`transcriber: speaker failed: ${reason}`),
    });
    // Every final, or a minute after the last sentence was sent (a starved recognizer is behind; its lag is the figure).
    await Promise.race([allDone, new Promise<void>((resolve) => sender?.on('exit', () => setTimeout(resolve, 60_000)))]);
    const recognizerMs = childrenCpuMs('pocketsphinx-recognizer.py');
    const decoderMs = childrenCpuMs('rtpstreamdepay');
    const audioSeconds = speaker.audioSeconds;
    await speaker.stop();
    const scored = finals.slice(1).map((f) => 1 - wordErrorRate(SENTENCE, f.text));
    return {
      sentences: options.repetitions,
      finals: finals.length,
      audioSeconds,
      cpuMsPerAudioSecond: (recognizerMs + decoderMs) / audioSeconds,
      recognizerCpuMsPerAudioSecond: recognizerMs / audioSeconds,
      latenciesMs: finals.map((f) => f.latency),
      wordAccuracy: scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function transcriberRows(r: TranscriberBenchResult): Row[] {
  const b = 'live transcription (PocketSphinx)';
  const sorted = [...r.latenciesMs].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return [
    { benchmark: b, figure: r.cpuMsPerAudioSecond.toFixed(0), unit: 'CPU ms per audio-second', notes: `decoder + recognizer processes of one speaker (recognizer alone ${r.recognizerCpuMsPerAudioSecond.toFixed(0)}), ${r.audioSeconds.toFixed(1)} s of audio` },
    { benchmark: b, figure: median.toFixed(0), unit: 'ms (median)', notes: `end of speech reaching the server → final sentence; n=${r.latenciesMs.length}, max ${Math.max(...r.latenciesMs).toFixed(0)} ms; includes the recognizer's ~0.5 s end-of-sentence pause` },
    { benchmark: b, figure: (r.wordAccuracy * 100).toFixed(0), unit: '% word accuracy', notes: `"${SENTENCE}" (espeak-ng) × ${r.sentences}, finals ${r.finals}; mean over the finals after the first (1 − WER)` },
  ];
}
