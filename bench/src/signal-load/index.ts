/** Signalling load: a headless protocol client and the capacity bench built on it. */
export { SignalClient, type Received, type Reply } from './signal-client.js';
export { LoadUser, type JoinOutcome, type UserPlan } from './load-user.js';
export { loadOptions, loadOptionsFromEnv, sourceAddress, type LoadOptions } from './plan.js';
export { runSignalLoad, type SignalLoadResult } from './run-signal-load.js';
export { signalLoadRows } from './rows.js';
export { retryAfterMs } from './retry.js';
