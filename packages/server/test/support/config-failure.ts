import { expect } from 'vitest';
import { ConfigError } from '../../src/config/config.js';

/** The message of the ConfigError `run` throws (fails the test when it throws nothing or something else). */
export function configFailure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}
