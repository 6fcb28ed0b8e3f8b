import { log } from '../log/logger.js';
import { switchEncoder } from '../transport/hw-encoder-loader.js';
import type { HWSlot, SlotEncoding, Uplink } from '../transport/uplink.js';
import { EncodeHealthMonitor } from './encode-health.js';

/** What the monitor reads of the room's publisher (room/publisher.ts): adaptation sits below the room. */
export interface PublishedVideos {
  readonly uplink: Uplink | undefined;
  local(slot: HWSlot): Readonly<{ track: MediaStreamTrack; encoding?: SlotEncoding }> | undefined;
}

/**
 * The encode-health monitor of the room's published videos (camera and screen), wired to the encoder
 * switch: a bad-health event (docs/behaviour.md §4) moves that slot back to the default payload, H264 42e01f — the
 * software encoder — as the original's onBadHealth → useHWEncoder(false). Events are at least 30 s apart.
 */
export function encodeHealthFor(publisher: PublishedVideos): EncodeHealthMonitor {
  return new EncodeHealthMonitor({
    videos: () => {
      const uplink = publisher.uplink;
      if (!uplink) return [];
      return (['video', 'aux'] as const).flatMap((slot) => {
        const local = publisher.local(slot);
        const targetKbps = local?.encoding?.maxBitrateKbps;
        const targetFps = local?.encoding?.maxFramerate ?? local?.track.getSettings().frameRate;
        return local && targetKbps && targetFps ? [{ slot, sender: uplink.sender(slot), targetFps, targetKbps }] : [];
      });
    },
    unhealthy: (slot: HWSlot, sample) => {
      log.warn(`${slot} hardware H264 encoder unhealthy: ${Math.round(sample.fps)}/${sample.targetFps} fps, ` +
        `${Math.round(sample.bitrate / 1000)}/${Math.round(sample.targetBitrate / 1000)} kbit/s for more than 3 heartbeats: switching to the software encoder`);
      const uplink = publisher.uplink;
      if (uplink) void switchEncoder(uplink, false, slot);
    },
  });
}
