import type { Emitter } from '../common/emitter.js';
import type { TRTCEventTypes } from '../types.js';
import { log } from './logger.js';
import { STAT_KEY, type LogUploader } from './upload.js';

/**
 * Ties a client's events to its log upload: an `error` event is logged, counted and uploaded; the end
 * of a session (DISCONNECTED once the room is left) uploads what is left; a throwing app listener is
 * reported on the console.
 * @param left true once the room is left (exitRoom, a ban, a failed join or reconnection).
 */
export function installLogHooks(events: Emitter<TRTCEventTypes>, uploader: LogUploader, left: () => boolean): void {
  events.tap = (event, args) => {
    if (event === 'connection-state-changed' && (args[0] as { state?: string } | undefined)?.state === 'DISCONNECTED' && left()) {
      // Upload what is left, including the lines logged right after (unless a new session started meanwhile).
      const session = uploader.identity;
      setTimeout(() => {
        if (session && uploader.identity === session) void uploader.stop();
      }, 0);
      return;
    }
    if (event !== 'error') return;
    const error = args[0] as { message?: string; stack?: string; code?: number } | undefined;
    log.error('error event:', error?.message ?? error);
    uploader.count(STAT_KEY.ERROR_EVENT);
    uploader.reportError(error ?? {});
  };
  events.onListenerError = (error, event) => {
    console.error(`[conclave] a '${String(event)}' listener threw:`, error);
  };
}
