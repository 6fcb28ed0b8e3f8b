/** Log levels (SPEC §9): TRACE 0 … NONE 5. */
export const LOG_LEVEL = Object.freeze({ TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, NONE: 5 } as const);
export type LogLevel = 0 | 1 | 2 | 3 | 4 | 5;

let level: LogLevel = LOG_LEVEL.INFO;

/** Sets the console log level for every client. */
export function setLevel(next: LogLevel): void {
  level = next;
}

const write = (at: LogLevel, fn: (...args: unknown[]) => void) => (...args: unknown[]) => {
  if (at >= level) fn('[conclave]', ...args);
};

/** The SDK's logger. */
export const log = {
  debug: write(LOG_LEVEL.DEBUG, console.debug),
  info: write(LOG_LEVEL.INFO, console.info),
  warn: write(LOG_LEVEL.WARN, console.warn),
  error: write(LOG_LEVEL.ERROR, console.error),
};
