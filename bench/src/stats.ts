/** Summary of a sample set; percentiles use the nearest-rank method. */
export interface Summary {
  count: number;
  median: number;
  min: number;
  max: number;
  p90: number;
  mean: number;
}

/** Nearest-rank percentile (p in 0..100) of already sorted values. */
function nearestRank(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('no samples');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
  return {
    count: sorted.length,
    median,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    p90: nearestRank(sorted, 90),
    mean: sorted.reduce((sum, v) => sum + v, 0) / sorted.length,
  };
}

/** Polls `probe` until it returns a value `done` accepts; throws after `timeoutMs` naming `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await probe();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    last = await probe();
  }
  return last;
}

/** Progress to stderr, so stdout carries only the table. */
export function progress(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}
