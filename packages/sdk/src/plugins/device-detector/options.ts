/** The option and result shapes of the DeviceDetector plugin (the original's). */

/** Options of startPlugin('DeviceDetector'). */
export interface DeviceDetectorOptions {
  /** Run the network test through the server with these credentials (uplink, and downlink when given). */
  networkDetect?: {
    sdkAppId: number;
    roomId?: number;
    userId: string;
    userSig: string;
    downlinkUserId?: string;
    downlinkUserSig?: string;
  };
  cameraDetect?: { mirror?: boolean };
  /** Whether the user may skip a step. */
  allowSkip?: boolean;
  language?: 'auto' | 'zh' | 'en';
}

/** What startPlugin('DeviceDetector') resolves with. */
export interface DeviceDetectorResult {
  camera: { isSuccess: boolean; device: MediaDeviceInfo };
  microphone: { isSuccess: boolean; device: MediaDeviceInfo };
  speaker: { isSuccess: boolean; device: MediaDeviceInfo };
  network: { isSuccess: boolean; result: { quality: number; rtt: number } };
}
