/** Log levels (docs/behaviour.md §9): TRACE 0 … NONE 5. */
export const LOG_LEVEL = Object.freeze({ TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, NONE: 5 } as const);
export type LogLevel = 0 | 1 | 2 | 3 | 4 | 5;

const LEVEL_NAME = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'NONE'] as const;

let level: LogLevel = LOG_LEVEL.INFO;
let uploadEnabled = true;

/** One log line for the upload. */
export interface LogEntry {
  time: number;
  level: LogLevel;
  text: string;
}

/** Who receives log lines for upload (one per client in a room). */
const sinks = new Set<(entry: LogEntry) => void>();

/** Sets the console log level for every client, and whether logs are uploaded. */
export function setLevel(next: LogLevel, enableUpload = true): void {
  level = next;
  uploadEnabled = enableUpload;
}

/** The console log level. */
export function currentLevel(): LogLevel {
  return level;
}

/** True when logs are uploaded (setLogLevel's enableUploadLog). */
export function uploadIsEnabled(): boolean {
  return uploadEnabled;
}

/** Adds a receiver of log lines; returns its removal. */
export function addLogSink(sink: (entry: LogEntry) => void): () => void {
  sinks.add(sink);
  return () => sinks.delete(sink);
}

/** One argument as log text. */
function textOf(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg instanceof Error) return `${arg.name}: ${arg.message}`;
  try {
    return JSON.stringify(arg) ?? String(arg);
  } catch {
    return String(arg); // a value JSON cannot write (a cycle, a BigInt): its String form
  }
}

/** Formats a log line as uploaded: time, level, text. */
export function formatEntry(entry: LogEntry): string {
  return `${new Date(entry.time).toISOString()} [${LEVEL_NAME[entry.level]}] ${entry.text}`;
}

const write = (at: LogLevel, fn: (...args: unknown[]) => void) => (...args: unknown[]) => {
  if (at >= level) fn('[conclave]', ...args);
  // Uploads keep INFO and above whatever the console level (docs/behaviour.md §9 default INFO).
  if (uploadEnabled && at >= LOG_LEVEL.INFO && sinks.size > 0) {
    const entry: LogEntry = { time: Date.now(), level: at, text: args.map(textOf).join(' ').slice(0, 2000) };
    for (const sink of sinks) sink(entry);
  }
};

/** The SDK's logger. */
export const log = {
  debug: write(LOG_LEVEL.DEBUG, console.debug),
  info: write(LOG_LEVEL.INFO, console.info),
  warn: write(LOG_LEVEL.WARN, console.warn),
  error: write(LOG_LEVEL.ERROR, console.error),
};
