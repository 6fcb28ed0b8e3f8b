/**
 * Media facts shared by the SDK, signalling and the media engines (docs/architecture.md "Media path"):
 * plain types and constants, no schemas, so that the engine can share them without importing the wire
 * protocol (`@conclave/protocol/media`). The wire's schemas are checked against these types.
 */

/** The uplink's m-lines, in their fixed order: 0 audio, 1 main (big) video, 2 small video, 3 auxiliary (screen) video. */
export type UplinkSlot = 'audio' | 'video' | 'small' | 'aux';

/** The uplink's slots in m-line order. */
export const UPLINK_SLOTS: readonly UplinkSlot[] = Object.freeze(['audio', 'video', 'small', 'aux'] as const);

/** Which of a source user's streams a subscriber receives. */
export interface SubscriptionWants {
  audio: boolean;
  bigVideo: boolean;
  smallVideo: boolean;
  auxVideo: boolean;
}

/** Where one subscription's streams arrive on the subscriber's downlink (m-line mids). */
export interface DownlinkMids {
  audio: string;
  video: string;
  aux: string;
}
