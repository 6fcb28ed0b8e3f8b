/**
 * Starts an operation on every item at a fixed rate (item i at i/rate seconds), without waiting for earlier
 * ones to finish, and resolves with every result: a ramp of joins or leaves as a crowd would make them.
 */
export async function ramp<T, R>(items: readonly T[], perSecond: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const started = performance.now();
  const results: Promise<R>[] = [];
  for (let i = 0; i < items.length; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    // Pacing of the ramp itself (not a wait for a condition): batches of whatever is due.
    if (wait > 4) await new Promise((resolve) => setTimeout(resolve, wait));
    results.push(run(items[i]));
  }
  return Promise.all(results);
}
