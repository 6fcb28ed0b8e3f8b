/** Argument checks shared by the generate and verify functions. These throw TypeError/RangeError: bad arguments
 * are programming errors, unlike bad signatures, which are reported as results. */

/** Largest value a 32-bit unsigned field of the privateMapKey userbuf can hold. */
export const UINT32_MAX = 0xffffffff;

/**
 * Asserts that `value` is an integer in [0, max].
 * @param name - the option name, for the message
 * @param value - the value to check
 * @param max - the inclusive upper bound
 */
export function checkUint(name: string, value: unknown, max: number = Number.MAX_SAFE_INTEGER): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  }
  if (value < 0 || value > max) {
    throw new RangeError(`${name} must be between 0 and ${max}, got ${value}`);
  }
}

/**
 * Asserts that `value` is a string, non-empty unless `allowEmpty`.
 * @param name - the option name, for the message
 * @param value - the value to check
 * @param allowEmpty - whether `''` is acceptable
 */
export function checkString(name: string, value: unknown, allowEmpty = false): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  if (!allowEmpty && value.length === 0) throw new TypeError(`${name} must not be empty`);
}

/**
 * The current time in whole seconds, or `now` when given (after checking it).
 * @param now - an explicit current time in seconds, or undefined
 * @returns the time in seconds
 */
export function resolveNow(now: number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  checkUint('now', now);
  return now;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  return typeof value;
}
