/**
 * The fuzzers' randomness: a small seeded generator (SplitMix32), so a failing run replays from its seed. The seed
 * and the size of a run come from the environment: CONCLAVE_FUZZ_SEED (the same variable the HTTP fuzz reads) and
 * CONCLAVE_FUZZ_ITERATIONS.
 */

export interface Rng {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** n random bytes. */
  bytes(n: number): Buffer;
}

export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 0x100000000;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    seed,
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(items.length)],
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => int(256))),
  };
}

/** CONCLAVE_FUZZ_SEED when set (to replay a run), else `fallback`. */
export function fuzzSeed(fallback: number): number {
  const set = process.env.CONCLAVE_FUZZ_SEED;
  return set !== undefined && set !== '' ? Number(set) >>> 0 : fallback;
}

/** CONCLAVE_FUZZ_ITERATIONS when set, else `fallback`: how many inputs of each category a run tries. */
export function fuzzIterations(fallback: number): number {
  const set = Number(process.env.CONCLAVE_FUZZ_ITERATIONS);
  return Number.isFinite(set) && set > 0 ? Math.floor(set) : fallback;
}

/** What to put in a failure's message so the run can be replayed. */
export function replayHint(seed: number): string {
  return `replay with CONCLAVE_FUZZ_SEED=${seed}`;
}
