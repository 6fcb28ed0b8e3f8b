/** Uplink commands: sending media and the publish flags others see. */
import { z } from 'zod';
import { command, empty, sdp } from './fields.js';

/** An SDP offer or answer as command data. */
export const sdpData = z.object({ sdp });
/**
 * The publish offer; `encrypted`: the client encrypts its media end to end (CustomEncryption), so the server
 * forwards it only to subscribers that decrypt and refuses mixing, CDN relay and recording of it.
 */
export const publishData = sdpData.extend({ encrypted: z.boolean().optional() });
/** Publish / mute flag bits of the sender (see FLAG). */
export const flagData = z.object({ flag: z.int().min(0).max(127) });

/** The publish group of CommandMap. */
export const publishCommands = {
  /** Uplink negotiation: the client's offer, the server's answer. */
  publish: command(publishData, sdpData),
  /** Closes the uplink. */
  unpublish: command(empty, empty),
  /** Publish / mute flag change of the sender. */
  'mute-flag': command(flagData, empty),
  /**
   * Opens this client's data link: a peer connection with one data channel carrying custom messages
   * (DATA_RECORD tagged records). The client's offer, the server's answer. Replaces an earlier link.
   */
  'data-link': command(sdpData, sdpData),
};
