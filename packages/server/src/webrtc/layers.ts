import type { SubscriptionWants } from '@conclave/protocol/media';

/** Which of the publisher's camera layers feeds a downlink's main-video m-line. */
export type Layer = 'video' | 'small';

/**
 * The most of a subscription's camera the downlink allocator lets through (issue 43): the layer the app asked
 * for ('big'), the small one at most, or none (video paused, audio kept). It only ever lowers what was asked.
 */
export type VideoCap = 'big' | 'small' | 'paused';

/**
 * The camera layer a downlink forwards: the small one when only it is wanted, or when the allocator capped the
 * subscription to it, and the publisher sends it.
 */
export function chooseLayer(wants: SubscriptionWants, smallActive: boolean, cap: VideoCap = 'big'): Layer {
  if (!smallActive) return 'video';
  return (wants.smallVideo && !wants.bigVideo) || cap !== 'big' ? 'small' : 'video';
}
