import type { SubscriptionWants } from '@conclave/protocol/media';

/** Which of the publisher's camera layers feeds a downlink's main-video m-line. */
export type Layer = 'video' | 'small';

/** The camera layer a downlink forwards: the small one when only it is wanted and the publisher sends it. */
export function chooseLayer(wants: SubscriptionWants, smallActive: boolean): Layer {
  return wants.smallVideo && !wants.bigVideo && smallActive ? 'small' : 'video';
}
