import type { z } from 'zod';
import type { iceServer } from './commands/fields.js';
import type { scheduleRequest, scheduleResponse } from './http/schedule.js';

/** Scheduling endpoint (docs/behaviour.md §7): POST form data to this path. */
export const SCHEDULE_PATH = '/api/v1/config';

/** Path of the WebSocket signalling endpoint. */
export const SIGNAL_PATH = '/signal';

/** Form fields of the scheduling request (schema: http/schedule.ts). */
export type ScheduleRequest = z.input<typeof scheduleRequest>;
/** An ICE server as the schedule returns it (same shape as RTCIceServer). */
export type IceServerInfo = z.infer<typeof iceServer>;
/** Body of the scheduling reply. */
export type ScheduleResponse = z.infer<typeof scheduleResponse>;
