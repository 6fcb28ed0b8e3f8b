/** Scheduling (docs/behaviour.md §7): `POST /api/v1/config`, form data. */
import { z } from 'zod';
import { iceServer } from '../commands/fields.js';

/** Form fields of the scheduling request (urlencoded; JSON accepted too). The server checks the first three. */
export const scheduleRequest = z.object({
  sdkAppId: z.string().regex(/^\d{1,16}$/, 'must be a positive integer').refine((v) => Number(v) > 0 && Number.isSafeInteger(Number(v)), 'must be a positive integer'),
  userId: z.string().min(1, 'is required'),
  userSig: z.string().min(1, 'is required'),
  isStrGroupId: z.string().optional(),
  groupId: z.string().optional(),
  sdkVersion: z.string().optional(),
  role: z.string().optional(),
  latencyLevel: z.string().optional(),
  frameWorkType: z.string().optional(),
});

/** Body of the scheduling reply; refusals too are status 200 with a nonzero `code`. */
export const scheduleResponse = z.object({
  code: z.int(),
  msg: z.string(),
  data: z.object({
    /** Signalling endpoints: full ws:// or wss:// URLs. */
    domains: z.object({ main: z.string(), backup: z.string() }),
    iceServers: z.array(iceServer),
    iceTransportPolicy: z.enum(['all', 'relay']),
    /** Auto-config flag for 2k/4k. */
    trtcAutoConf: z.object({ enable2k4k: z.boolean() }),
    config: z.object({
      retryCount: z.int().optional(),
      loggerDomain: z.string().optional(),
      /** Clients tap received video so the decoder fallback (TRTCVideoDecoder) can take over. */
      videoDecodeFallback: z.boolean().optional(),
      /** As enterRoom({preferHW}): published videos of 1280×720 or more go to the hardware encoder (H264 42001f). */
      preferHW: z.boolean().optional(),
      enterRoomTimeout: z.number().optional(),
      /** When false the client must not cache this result. */
      scheduleCache: z.boolean().optional(),
      /**
       * Relay switching (docs/behaviour.md §4): the client tries TURN (over TCP when offered) once the media path's
       * round trip exceeds signalling's by `rttRatioThreshold` times and `rttThreshold` ms for 5 checks, or (with `loss`)
       * once media loss exceeds `loss` % for `lossCount` checks (default 5) while signalling's round trip stays under 100 ms.
       */
      useTurnTcpInfo: z.object({
        rttRatioThreshold: z.number().positive(), rttThreshold: z.number().nonnegative(),
        loss: z.number().min(0).max(100).optional(), lossCount: z.int().positive().optional(),
      }).optional(),
    }),
  }).optional(),
});
