/**
 * The client's one downlink (DESIGN "Media path"): a receive-only peer connection the server offers.
 * Each subscription occupies three of its m-lines (audio, main video, auxiliary video); `subscribe`
 * replies with their mids. When m-lines must be added, the server pushes `downlink-offer` before that
 * reply and the client answers with `downlink-answer` (one negotiation at a time, numbered). Ended
 * subscriptions leave their m-lines for the next one. `downlink-reset` discards the downlink (it
 * failed): every subscription on it ends and the next `subscribe` starts a new one.
 */

/** Where one subscription's streams arrive on the downlink: the mids of its three m-lines. */
export interface DownlinkMids {
  audio: string;
  video: string;
  aux: string;
}

/** A server offer for the downlink (push `downlink-offer`). */
export interface DownlinkOffer {
  /** Numbers the negotiations of one downlink; the answer names it. */
  seq: number;
  sdp: string;
}

/** The client's answer to a downlink offer. */
export interface DownlinkAnswerData {
  seq: number;
  sdp: string;
}

/** The downlink's commands (request data and reply data). */
export interface DownlinkCommands {
  /** The client's answer to the `downlink-offer` push numbered `seq`. */
  'downlink-answer': { data: DownlinkAnswerData; reply: Record<string, never> };
  /** Discards the downlink and its subscriptions (it failed); the next subscribe builds a new one. */
  'downlink-reset': { data: Record<string, never>; reply: Record<string, never> };
}

/** The downlink's pushes. */
export interface DownlinkPushes {
  'downlink-offer': DownlinkOffer;
}

export const DOWNLINK_COMMANDS = ['downlink-answer', 'downlink-reset'] as const;
