/** Scheduling endpoint (SPEC §7): POST form data to this path. */
export const SCHEDULE_PATH = '/api/v1/config';

/** Path of the WebSocket signalling endpoint. */
export const SIGNAL_PATH = '/signal';

/** Form fields of the scheduling request. */
export interface ScheduleRequest {
  userId: string;
  sdkAppId: string;
  isStrGroupId: string;
  groupId: string;
  sdkVersion: string;
  userSig: string;
  role?: string;
  latencyLevel?: string;
  frameWorkType?: string;
}

/** An ICE server as the schedule returns it (same shape as RTCIceServer). */
export interface IceServerInfo {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** Body of the scheduling reply. */
export interface ScheduleResponse {
  code: number;
  msg: string;
  data?: {
    /** Signalling endpoints: full ws:// or wss:// URLs. */
    domains: { main: string; backup: string };
    iceServers: IceServerInfo[];
    iceTransportPolicy: 'all' | 'relay';
    /** Auto-config flag for 2k/4k. */
    trtcAutoConf: { enable2k4k: boolean };
    config: {
      retryCount?: number;
      loggerDomain?: string;
      enterRoomTimeout?: number;
      /** When false the client must not cache this result. */
      scheduleCache?: boolean;
    };
  };
}
