/**
 * An addition to the media-engine contract (media-engine.ts): a playback link whose offer comes from the
 * client, as WHEP (RFC 9725) players send it. The engine's own downlinks are server-offered (a subscriber's
 * one downlink grows by renegotiation); a WHEP player instead POSTs a receive-only offer once and expects an
 * answer carrying one source's audio and one video. docs/architecture.md "Client-offered playback, WHEP and WHIP".
 */

import type { MediaEngine } from './media-engine.js';

/** Which video of the source a playback link carries: the main (camera) stream or the auxiliary (screen) one. */
export type PlaybackStream = 'main' | 'aux';

export interface ClientOfferPlayback {
  /**
   * Answers `viewerId`'s receive-only offer (one audio and one video m-line; either may be missing) with a
   * link carrying `sourceId`'s audio and its main or auxiliary video. The viewer must have joined the source's
   * room (joinRoom); it is not a room member otherwise and has no other downlink. A source that has not
   * published yet is waited for (the engine's source wait). The answer holds every server candidate (ICE is
   * not trickled). The link lives until removeParticipant(viewerId); when it fails the engine emits
   * `downlink-failed` for the viewer.
   * Rejects 'not-joined' (viewer or source not in one room), 'not-published', 'negotiation-failed' (a bad
   * offer, no usable codec), 'unavailable' (media server down). `wants` is what may flow on the link (default
   * `playbackWants(stream)`): the caller's privilege rule; the link never carries more, and an m-line with nothing
   * to carry is answered inactive.
   */
  answerPlayback(viewerId: string, sourceId: string, stream: PlaybackStream, offerSdp: string, wants?: PlaybackWants): Promise<string>;
}

/** True when `engine` answers client-offered playback links. */
export function answersPlayback(engine: MediaEngine): engine is MediaEngine & ClientOfferPlayback {
  return typeof (engine as Partial<ClientOfferPlayback>).answerPlayback === 'function';
}

/** What a playback link carries of its source (SubscriptionWants of the engine's subscribe). */
export interface PlaybackWants { audio: boolean; bigVideo: boolean; smallVideo: boolean; auxVideo: boolean }

/** What a playback link of `stream` wants from its source, at most `allowed` (every stream when not given). */
export function playbackWants(stream: PlaybackStream, allowed?: PlaybackWants): PlaybackWants {
  const wants = { audio: true, bigVideo: stream === 'main', smallVideo: false, auxVideo: stream === 'aux' };
  if (!allowed) return wants;
  return { audio: wants.audio && allowed.audio, bigVideo: wants.bigVideo && allowed.bigVideo, smallVideo: false, auxVideo: wants.auxVideo && allowed.auxVideo };
}
