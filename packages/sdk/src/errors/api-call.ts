import { RtcError } from './rtc-error.js';

/** Runs a public API call, converting whatever it throws into an RtcError naming the function. */
export async function apiCall<T>(functionName: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw RtcError.convertFrom(error, functionName);
  }
}

/** The synchronous twin of apiCall(). */
export function apiCallSync<T>(functionName: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw RtcError.convertFrom(error, functionName);
  }
}
