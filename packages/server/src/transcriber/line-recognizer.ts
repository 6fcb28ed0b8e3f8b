import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { primaryLanguage, type RecognitionListener, type RecognitionResult, type RecognitionStream, type Recognizer } from './recognizer.js';

/** Debian's Python, which has the GStreamer bindings the default recognizer uses. */
const PYTHON = process.env.CONCLAVE_JOB_PYTHON ?? '/usr/bin/python3';
/** The default recognizer program; resolves from both src/transcriber (tests) and dist/transcriber (built server). */
const POCKETSPHINX = fileURLToPath(new URL('../../src/transcriber/pocketsphinx-recognizer.py', import.meta.url));
/** How long a recognizer may take to load its model. */
const READY_TIMEOUT_MS = 15_000;
/** How long a recognizer may take to finish after its input ended (it may be behind on a loaded machine). */
const END_GRACE_MS = 20_000;

/** A recognizer program: the command, its arguments, and the languages its model speaks (primary subtags). */
export interface LineRecognizerOptions {
  name: string;
  command: string;
  args: readonly string[];
  languages: readonly string[];
}

interface Line {
  type?: string;
  text?: string;
  start?: number;
  end?: number;
  message?: string;
}

/**
 * A recognizer that runs one program per stream speaking the line protocol: raw PCM (16 kHz, s16le, mono) on
 * stdin; on stdout JSON lines `{type: 'ready'}`, `{type: 'partial', text, start}`, `{type: 'final', text, start,
 * end}` (seconds of audio) and `{type: 'error', message}`. PocketSphinx is one such program; any other recognizer
 * wrapped the same way plugs in without code (CONCLAVE_TRANSCRIBER_COMMAND).
 */
export class LineRecognizer implements Recognizer {
  readonly name: string;
  readonly #options: LineRecognizerOptions;

  constructor(options: LineRecognizerOptions) {
    this.name = options.name;
    this.#options = options;
  }

  language(sourceLanguage: string): string | undefined {
    const primary = primaryLanguage(sourceLanguage);
    return this.#options.languages.includes(primary) ? primary : undefined;
  }

  open(_language: string, listener: RecognitionListener): RecognitionStream {
    const child = spawn(this.#options.command, [...this.#options.args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let ended = false;
    let closed = false;
    let isReady = false;
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-2000); });
    let markReady!: () => void;
    let refuse!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => { markReady = resolve; refuse = reject; });
    ready.catch(() => undefined); // handed to the owner below, which awaits and reports it: no unhandled rejection before
    const timer = setTimeout(() => { refuse(new Error(`${this.name}: not ready within ${READY_TIMEOUT_MS} ms`)); child.kill('SIGKILL'); }, READY_TIMEOUT_MS);
    createInterface({ input: child.stdout }).on('line', (text) => {
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        return; // the recognizer writes one JSON line each; a library's stray output on stdout is no line
      }
      if (line.type === 'ready') {
        isReady = true;
        clearTimeout(timer);
        markReady();
      } else if (line.type === 'error') {
        stderr = line.message ?? stderr;
      } else {
        // After end() the sentence in progress still comes (as a final); after close() nothing does.
        const result = toResult(line);
        if (result && !closed) listener.onResult(result);
      }
    });
    const exited = new Promise<void>((resolve) => {
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        const error = new Error(`${this.name} exited (${signal ?? String(code)})${stderr ? `: ${stderr.trim().split('\n').pop() ?? ''}` : ''}`);
        refuse(error);
        if (isReady && !ended && !closed) listener.onError(error);
        resolve();
      });
      child.on('error', (error) => { clearTimeout(timer); refuse(error); resolve(); });
    });
    return {
      ready,
      write: (pcm) => { if (!ended && child.stdin.writable) child.stdin.write(pcm); },
      end: async (graceMs = END_GRACE_MS) => {
        if (ended) return exited;
        ended = true;
        child.stdin.end();
        const kill = setTimeout(() => { closed = true; child.kill('SIGKILL'); }, graceMs);
        await exited;
        clearTimeout(kill);
      },
      close: () => {
        ended = true;
        closed = true;
        child.kill('SIGKILL');
      },
    };
  }
}

function toResult(line: Line): RecognitionResult | undefined {
  const text = typeof line.text === 'string' ? line.text.trim() : '';
  const start = typeof line.start === 'number' ? line.start : 0;
  if (line.type === 'partial' && text) return { type: 'partial', text, start };
  if (line.type === 'final') return { type: 'final', text, start, end: typeof line.end === 'number' ? line.end : start };
  return undefined;
}

/** The shipped recognizer: PocketSphinx with Debian's US English model (pocketsphinx-en-us), offline. */
export function pocketsphinxRecognizer(extraArgs: readonly string[] = []): LineRecognizer {
  return new LineRecognizer({ name: 'pocketsphinx', command: PYTHON, args: [POCKETSPHINX, ...extraArgs], languages: ['en'] });
}

/**
 * The recognizer this server uses: an operator's program (CONCLAVE_TRANSCRIBER_COMMAND, a command line run
 * through no shell: words split on spaces; CONCLAVE_TRANSCRIBER_LANGUAGES, comma-separated primary subtags, default
 * 'en'), or PocketSphinx.
 */
export function recognizerFromEnv(env: NodeJS.ProcessEnv = process.env): Recognizer {
  const command = env.CONCLAVE_TRANSCRIBER_COMMAND?.trim();
  if (!command) return pocketsphinxRecognizer();
  const [program = '', ...args] = command.split(/\s+/);
  const languages = (env.CONCLAVE_TRANSCRIBER_LANGUAGES ?? 'en').split(',').map((l) => primaryLanguage(l)).filter(Boolean);
  return new LineRecognizer({ name: program.split('/').pop() ?? program, command: program, args, languages });
}
