import { SCHEDULE_PATH, type ScheduleResponse } from '@conclave/protocol';
import { withTimeout } from '../common/timeout.js';

/** A successful scheduling result. */
export type Schedule = NonNullable<ScheduleResponse['data']>;

/** Scheduling answered with a non-zero code. */
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

/** Asks the scheduling endpoint (SPEC §7) where to connect. */
export async function fetchSchedule(baseUrl: string, params: ScheduleParams, timeoutMs = 5000): Promise<Schedule> {
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
  const response = await withTimeout(fetch(url, { method: 'POST', body: form }), timeoutMs, () => new Error('schedule time-out'));
  if (!response.ok) throw new Error(`schedule failed: HTTP ${response.status}`);
  const body = (await response.json()) as ScheduleResponse;
  if (body.code !== 0 || !body.data) throw new ScheduleRefused(body.code, body.msg);
  return body.data;
}
