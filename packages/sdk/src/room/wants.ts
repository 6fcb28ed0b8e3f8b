import type { PublishState, SubscriptionWants } from '@conclave/protocol';

/** What is subscribed of a remote user. */
export type Wants = SubscriptionWants;

/** What decides a subscription, besides the remote's flag. */
export interface WantsInput {
  state: PublishState;
  autoReceiveAudio: boolean;
  autoReceiveVideo: boolean;
  /** muteRemoteAudio(…, false) asked for audio (true), or (…, true) … still received, only silenced. */
  audioRequested: boolean | undefined;
  mainRequested: boolean;
  subRequested: boolean;
  mainHidden?: boolean;
  subHidden?: boolean;
  preferSmall: boolean;
}

/**
 * The subscription wanted of a remote user (pure). Audio when published, unmuted and asked for
 * (autoReceiveAudio or muteRemoteAudio(…, false)); main video when available and asked for
 * (autoReceiveVideo or startRemoteVideo) and its view is not hidden — the small stream instead of
 * the big one when preferred and the remote publishes it; the auxiliary video likewise.
 */
export function computeWants(input: WantsInput): Wants {
  const s = input.state;
  const audio = s.hasAudio && !s.audioMuted && (input.audioRequested ?? input.autoReceiveAudio);
  const main = s.hasVideo && !s.videoMuted && (input.autoReceiveVideo || input.mainRequested) && !input.mainHidden;
  const small = main && input.preferSmall && s.hasSmall;
  const auxVideo = s.hasAuxiliary && !s.auxMuted && (input.autoReceiveVideo || input.subRequested) && !input.subHidden;
  return { audio, bigVideo: main && !small, smallVideo: small, auxVideo };
}

export function sameWants(a: Wants | undefined, b: Wants): boolean {
  return !!a && a.audio === b.audio && a.bigVideo === b.bigVideo && a.smallVideo === b.smallVideo && a.auxVideo === b.auxVideo;
}

export function wantsAnything(w: Wants): boolean {
  return w.audio || w.bigVideo || w.smallVideo || w.auxVideo;
}
