/**
 * What a fuzz run watches in its own process, where the server runs: uncaught exceptions and unhandled rejections
 * (each one a crash of a real server process), and the V8 heap after garbage collection.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Collects uncaught exceptions and unhandled rejections until stopped. */
export function watchCrashes(): { readonly crashes: string[]; stop(): void } {
  const crashes: string[] = [];
  const note = (kind: string) => (error: unknown) => {
    crashes.push(`${kind}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  };
  const onRejection = note('unhandled rejection');
  // The monitor hears an uncaught exception without changing what happens to it (the test runner still fails).
  const onException = note('uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return {
    crashes,
    stop: () => {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtExceptionMonitor', onException);
    },
  };
}

/** V8's gc(), when it can be had (it is exposed at run time, so the heap can be read after a collection). */
function gcFunction(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? gc as () => void : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the heap used after two full collections (or as it is, when gc() cannot be had: `collected` false). */
export function heapReader(): { collected: boolean; read(): number } {
  const gc = gcFunction();
  return {
    collected: gc !== undefined,
    read: () => {
      gc?.();
      gc?.();
      return process.memoryUsage().heapUsed;
    },
  };
}
