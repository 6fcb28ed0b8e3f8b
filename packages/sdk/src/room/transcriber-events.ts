import type { Emitter } from '../common/emitter.js';
import type { SignalChannel } from '../signal/signal-channel.js';
import type { TRTCEventTypes } from '../types.js';
import type { RoomTarget } from '../validate/enter-room.js';

/**
 * A RealtimeTranscriber robot's sentences and state, for every user of the room whether or not it registered the
 * plugin (the original's core emits them from the robot's messages): realtime-transcriber-message (never with an
 * empty text; no translations on this server) and realtime-transcriber-state-changed with the room's id.
 */
export function emitTranscriberEvents(signal: SignalChannel, events: Emitter<TRTCEventTypes>, target: () => RoomTarget | undefined): void {
  signal.on('transcriber-message', (message) => {
    if (message.sourceText !== '') events.emit('realtime-transcriber-message', { ...message, translationTexts: [] });
  });
  signal.on('transcriber-state', (state) => {
    const room = target();
    const roomId = !room ? '' : room.isString ? room.roomId : Number(room.roomId);
    events.emit('realtime-transcriber-state-changed', { ...state, roomId });
  });
}
