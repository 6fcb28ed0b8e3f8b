import { SCHEDULE_PATH, type ScheduleResponse } from '@conclave/protocol';
import { fibonacci } from '../common/fibonacci.js';

/** A successful scheduling result. */
export type Schedule = NonNullable<ScheduleResponse['data']>;

/** Scheduling answered with a non-zero code: the server's final word (not retried). */
export class ScheduleRefused extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = 'ScheduleRefused';
  }
}

export interface ScheduleParams {
  sdkAppId: number;
  userId: string;
  userSig: string;
  roomId: string;
  isStringRoomId: boolean;
  sdkVersion: string;
  role?: string;
}

/** Retries per host after the first attempt (docs/behaviour.md §7). */
export const SCHEDULE_RETRIES = 3;

/**
 * Time-out of attempt `count` (0-based) on one host: Fibonacci(2 + count) s (docs/behaviour.md §7), counted as the
 * original counts it (its series starts 1, 2, 3, 5): 2, 3, 5, 8 s.
 */
export function scheduleTimeoutMs(count: number): number {
  return fibonacci(3 + count) * 1000;
}

/** Asks one scheduling host (docs/behaviour.md §7) where to connect; `signal` aborts it (time-out or a faster host). */
export async function fetchSchedule(baseUrl: string, params: ScheduleParams, signal?: AbortSignal): Promise<Schedule> {
  const form = new URLSearchParams({
    userId: params.userId,
    sdkAppId: String(params.sdkAppId),
    isStrGroupId: String(params.isStringRoomId),
    groupId: params.roomId,
    sdkVersion: params.sdkVersion,
    userSig: params.userSig,
    ...(params.role ? { role: params.role } : {}),
  });
  const url = new URL(SCHEDULE_PATH, baseUrl).toString();
  const response = await fetch(url, { method: 'POST', body: form, signal });
  if (!response.ok) throw new Error(`schedule failed: HTTP ${response.status}`);
  const body = (await response.json()) as ScheduleResponse;
  if (body.code !== 0 || !body.data) throw new ScheduleRefused(body.code, body.msg);
  return body.data;
}

/**
 * Schedules on the main and the backup host in parallel (docs/behaviour.md §7): each host is tried up to
 * 1 + SCHEDULE_RETRIES times with growing time-outs; the first answer wins and the other host's
 * request is aborted. A refusal (non-zero code) is final. Rejects with the last failure when every
 * host has failed.
 */
export function scheduleParallel(hosts: readonly string[], params: ScheduleParams): Promise<Schedule> {
  const done = new AbortController();
  let failures = 0;
  return new Promise<Schedule>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      if (done.signal.aborted) return;
      done.abort();
      outcome();
    };
    for (const host of hosts) {
      tryHost(host, params, done.signal).then((schedule) => settle(() => resolve(schedule)), (error: unknown) => {
        if (error instanceof ScheduleRefused || ++failures === hosts.length) settle(() => reject(error));
      });
    }
    if (hosts.length === 0) reject(new Error('no scheduling host'));
  });
}

/** One host: attempts with Fibonacci time-outs until an answer, a refusal, or the retries run out. */
async function tryHost(host: string, params: ScheduleParams, stop: AbortSignal): Promise<Schedule> {
  let lastError: unknown;
  for (let count = 0; count <= SCHEDULE_RETRIES && !stop.aborted; count++) {
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    stop.addEventListener('abort', abort);
    const timer = setTimeout(() => attempt.abort(new Error(`schedule time-out (${scheduleTimeoutMs(count)} ms) on ${host}`)), scheduleTimeoutMs(count));
    try {
      return await fetchSchedule(host, params, attempt.signal);
    } catch (error) {
      if (error instanceof ScheduleRefused) throw error;
      lastError = attempt.signal.aborted && attempt.signal.reason instanceof Error ? attempt.signal.reason : error;
    } finally {
      clearTimeout(timer);
      stop.removeEventListener('abort', abort);
    }
  }
  throw lastError ?? new Error('schedule aborted');
}
