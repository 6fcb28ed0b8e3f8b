import type { Emitter } from '../common/emitter.js';
import type { SignalChannel } from '../signal/signal-channel.js';
import type { EncodedHooks } from '../transport/frame-pipes.js';
import type { EnterRoomConfig, TRTCEventTypes } from '../types.js';
import type { RemoteUser } from './remote-user.js';

/** What the room's parts (remote users, publisher) need from the room session. */
export interface RoomContext {
  readonly events: Emitter<TRTCEventTypes>;
  /** The open signalling channel, if any (none while reconnecting). */
  signal(): SignalChannel | undefined;
  /** The enterRoom options of the current session. */
  config(): EnterRoomConfig | undefined;
  /** True when in the room (joined). */
  joined(): boolean;
  /** This user's id. */
  userId(): string;
  iceServers(): RTCIceServer[];
  iceTransportPolicy(): RTCIceTransportPolicy;
  /**
   * Encoded-frame hooks (SEI, a plugin's frame cipher; transport/frame-pipes.ts): peer connections are then
   * created with encodedInsertableStreams and every sender / receiver is handed over to be piped.
   */
  encoded?(): EncodedHooks | undefined;
  /** True while a plugin's frame cipher is set (end-to-end encryption: the publish / subscribe commands say so). */
  e2ee?(): boolean;
  /** Watches a peer connection for failure and connect time-outs (rebuilds it through the room). */
  watchLink(pc: RTCPeerConnection, kind: 'uplink' | 'downlink', user?: RemoteUser): void;
}
