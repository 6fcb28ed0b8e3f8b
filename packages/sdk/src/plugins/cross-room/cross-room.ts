import { CROSS_ROOM_CODE } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext, PluginSignalFailure } from '../../plugin-api/index.js';
import { toStartData, toStopData, toUpdateData, type StartCrossRoomOption, type StopCrossRoomOption, type UpdateCrossRoomOption } from './options.js';

export type { StartCrossRoomOption, UpdateCrossRoomOption, UpdateCrossRoomOptionItem, StopCrossRoomOption } from './options.js';

/** The original retries start and update 3 times, 1 s apart, when the request itself fails. */
const RETRIES = 3;
const RETRY_MS = 1000;
const TIMEOUT_MS = 10_000;

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(CROSS_ROOM_CODE).map(([name, code]) => [code, name]));

/**
 * The CrossRoom plugin (trtc-sdk-v5's plugins/cross-room): connects this anchor with an anchor of another room
 * ("PK"). Each room's users then see the other anchor as a remote user — `remote-user-enter`, its audio and
 * video available, subscribed like any user — while neither anchor joins the other room; the server forwards
 * the media. docs/behaviour.md §7.6.
 */
export class CrossRoom {
  static readonly Name = 'CrossRoom';
  private readonly _ctx: PluginContext;
  private _queue: Promise<unknown> = Promise.resolve();

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /**
   * Connects with `userId` of room `roomId` / `strRoomId`. Needs a joined client that publishes as an anchor;
   * `privateMapKey` is this user's key for the other room (required when the app requires privateMapKeys).
   * Rejects INVALID_PARAMETER for bad options, INVALID_OPERATION (5101) when not in a room, and SERVER_ERROR
   * with the server's code as extraCode for a refusal: -3330 audience, -102031 not supported (no userId),
   * -102044 not publishing (no media), or any refusal about the other room (no such room or anchor, no right to
   * enter it, no place there: one answer), -102047 already connected with that room.
   */
  start(option: StartCrossRoomOption): Promise<void> {
    return this._send('startPlugin', 'cross-room-start', () => toStartData(option, this._ctx.errors), true);
  }

  /**
   * Mutes or unmutes, in this room, the audio, video or sub stream of anchors connected from another room:
   * this room's users get `remote-*-unavailable` for what is muted and can no longer subscribe to it.
   * Rejects as start does, and SERVER_ERROR -102042 (no connection with that room) / -102043 (no such connected user).
   */
  update(option: UpdateCrossRoomOption): Promise<void> {
    return this._send('updatePlugin', 'cross-room-update', () => toUpdateData(option, this._ctx.errors), true);
  }

  /**
   * Ends the connection with room `roomId` / `strRoomId`, or every connection of this anchor when none is
   * given; both rooms see the other anchor leave (`remote-user-exit`). Rejects SERVER_ERROR -102042 when
   * there is no connection with the room given.
   */
  stop(option?: StopCrossRoomOption): Promise<void> {
    return this._send('stopPlugin', 'cross-room-stop', () => toStopData(option, this._ctx.errors), false);
  }

  /** Sends one command after the previous ones (calls are serialised); retries a failed channel, never a refusal. */
  private _send(functionName: string, cmd: 'cross-room-start' | 'cross-room-update' | 'cross-room-stop', data: () => object, retry: boolean): Promise<void> {
    let payload: object;
    try {
      payload = data();
    } catch (error) {
      return Promise.reject(error);
    }
    const task = async () => {
      if (!this._ctx.signal.joined()) {
        throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, extraCode: EXTRA_CODE.NOT_JOINED, message: 'please call enterRoom() before using CrossRoom', functionName });
      }
      for (let attempt = 0; ; attempt++) {
        try {
          await this._ctx.signal.request(cmd, payload, TIMEOUT_MS);
          this._ctx.log.info(`CrossRoom: ${cmd} ok`, payload);
          return;
        } catch (error) {
          const { code, message } = error as PluginSignalFailure;
          // A reply code is the server's answer: final. Code 0 is the channel (closed, timed out): retried.
          if (code !== 0 || !retry || attempt >= RETRIES || !this._ctx.signal.joined()) throw this._failure(code, message, functionName);
          this._ctx.log.warn(`CrossRoom: retry ${cmd} (${attempt + 1}): ${message}`);
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    };
    const next = this._queue.catch(() => undefined).then(task); // the previous task's caller got its failure
    this._queue = next;
    return next;
  }

  /** A refusal as the original reports it: SERVER_ERROR with the server's code as extraCode and its message. */
  private _failure(code: number, message: string, functionName: string): Error {
    const name = NAMES[code];
    return this._ctx.errors({ code: ERROR_CODE.SERVER_ERROR, extraCode: code, message: name ? `${message} (${name})` : message, functionName });
  }

  /** Nothing to release: the server ends the connections when this anchor leaves the room. */
  destroy(): void {
    this._queue = Promise.resolve();
  }
}
