import type { PushMap } from '@conclave/protocol';
import type { Emitter } from '../common/emitter.js';
import { log } from '../log/logger.js';
import type { CustomMessages } from '../messages/custom-messages.js';
import type { SignalChannel } from '../signal/signal-channel.js';
import type { TRTCEventTypes } from '../types.js';
import type { RoomTarget } from '../validate/enter-room.js';
import type { RemoteUsers } from './remote-users.js';
import type { AudienceCount } from './audience-count.js';
import { emitTranscriberEvents } from './transcriber-events.js';

/** Who hears the signalling channel's pushes. */
export interface SignalListenersHost {
  remotes: RemoteUsers;
  messages: CustomMessages;
  audience: AudienceCount;
  events: Emitter<TRTCEventTypes>;
  target(): RoomTarget | undefined;
  /** The room's channel now (a push of a replaced channel is ignored). */
  current(): SignalChannel | undefined;
  banned(data: PushMap['banned']): void;
  /** The room's channel is gone: reconnect. */
  lost(): void;
}

/** Routes a signalling channel's pushes to the room's parts (docs/behaviour.md §7.2). */
export function listenToSignal(signal: SignalChannel, host: SignalListenersHost): void {
  signal.on('peer-join', (peer) => {
    host.remotes.onPeerJoin(peer);
    host.messages.onPeerJoin(peer.tinyId);
  });
  signal.on('peer-leave', ({ userId, reason }) => host.remotes.onPeerLeave(userId, reason));
  signal.on('publish-list', (list) => host.remotes.onPublishList(list));
  signal.on('audience-count', ({ count }) => host.audience.set(count));
  signal.on('downlink-offer', (offer) => host.remotes.subscriptions.onOffer(offer));
  // The server closed its side of the downlink (it failed there, or its media engine restarted).
  signal.on('downlink-closed', ({ reason, message }) => {
    log.warn(`the server closed the downlink (${reason}: ${message}); rebuilding it`);
    host.remotes.rebuildDownlink();
  });
  signal.on('banned', (data) => host.banned(data));
  emitTranscriberEvents(signal, host.events, () => host.target());
  signal.on('lost', (reason) => {
    if (signal !== host.current()) return;
    log.warn('signal channel lost:', reason);
    host.lost();
  });
}
