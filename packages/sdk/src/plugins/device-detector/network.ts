import type { DeviceDetectorOptions, DeviceDetectorResult } from './options.js';

/** The part of a TRTC client the network test drives (public API). */
export interface TestClient {
  startLocalVideo(options?: object): Promise<void>;
  stopLocalVideo(): Promise<void>;
  enterRoom(options: object): Promise<void>;
  exitRoom(): Promise<void>;
  destroy(): void;
  on(event: 'network-quality', listener: (quality: { uplinkNetworkQuality: number; downlinkNetworkQuality: number; uplinkRTT: number }) => void): unknown;
}

/** How long the test measures (the original's 15 s). */
export const NETWORK_TEST_SECONDS = 15;

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/**
 * The network test, as the original's `networkDetect` describes it: an uplink client publishes the camera
 * into a room of the server (the given credentials), a downlink client (when downlinkUserId / downlinkUserSig
 * are given) joins it to receive; for `seconds` their `network-quality` events are averaged. quality is the
 * worse of the two averages (0 when either is unknown), rtt the mean uplink RTT; isSuccess = quality known.
 */
export async function runNetworkTest(create: () => TestClient, info: NonNullable<DeviceDetectorOptions['networkDetect']>, seconds: number, onTick: (left: number) => void, warn: (...args: unknown[]) => void): Promise<DeviceDetectorResult['network']> {
  const roomId = info.roomId ?? 100_000 + Math.floor(Math.random() * 900_000);
  const up = create();
  const down = info.downlinkUserId && info.downlinkUserSig ? create() : undefined;
  const uplink: number[] = [];
  const downlink: number[] = [];
  const rtts: number[] = [];
  up.on('network-quality', (q) => {
    if (q.uplinkNetworkQuality > 0) uplink.push(q.uplinkNetworkQuality);
    if (q.uplinkRTT > 0) rtts.push(q.uplinkRTT);
  });
  down?.on('network-quality', (q) => {
    if (q.downlinkNetworkQuality > 0) downlink.push(q.downlinkNetworkQuality);
  });
  try {
    // The picture is what is measured; a missing camera still lets signalling and RTT be measured.
    await up.startLocalVideo().catch(() => undefined);
    await up.enterRoom({ sdkAppId: info.sdkAppId, roomId, userId: info.userId, userSig: info.userSig });
    if (down) await down.enterRoom({ sdkAppId: info.sdkAppId, roomId, userId: info.downlinkUserId, userSig: info.downlinkUserSig });
    for (let left = seconds; left > 0; left -= 1) {
      onTick(left);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } catch (error) {
    // A failed join (or the dialog closed): quality stays unknown (isSuccess false), and the log says why.
    warn('DeviceDetector: the network test stopped:', error);
  } finally {
    // The test's own clients: a failure to end them changes no result, and they are destroyed below.
    await up.stopLocalVideo().catch(() => undefined);
    await Promise.all([up.exitRoom().catch(() => undefined), down?.exitRoom().catch(() => undefined)]); // likewise
    up.destroy();
    down?.destroy();
  }
  const upQ = Math.ceil(mean(uplink));
  const downQ = Math.ceil(mean(downlink));
  const quality = upQ === 0 || (down && downQ === 0) ? 0 : Math.max(upQ, downQ);
  const rtt = Math.ceil(mean(rtts));
  if (quality === 0) warn(`DeviceDetector: the network test measured no quality (uplink samples ${uplink.length}, downlink samples ${downlink.length})`);
  return { isSuccess: quality !== 0, result: { quality, rtt } };
}
