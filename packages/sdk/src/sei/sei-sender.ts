import type { Emitter } from '../common/emitter.js';
import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidOperation, MESSAGE } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import { importOnce } from '../loader/import-once.js';
import type { Room } from '../room/room.js';
import { UPLINK_SLOTS } from '../transport/uplink.js';
import type { SEIMessageOptions, TRTCEventTypes } from '../types.js';
import { validateSEI } from '../validate/messages.js';
import { encodedStreamsSupported } from '../transport/frame-pipes.js';
import type { SeiChannel } from './sei-channel.js';

const FN = 'sendSEIMessage';

/**
 * The client's SEI (create({enableSEI: true}) where encoded transforms exist): pipes the room's senders
 * and receivers through a SeiChannel (the room's frame pipes), and checks and queues what sendSEIMessage sends.
 * The channel (with the NAL code) is an asset loaded from the server when the client is created with SEI on
 * (docs/architecture.md "SDK plugins"); enterRoom waits for it (ready()), so every link of the room carries it.
 */
export class SeiSender {
  private readonly _enabled: boolean;
  private _channel: SeiChannel | undefined;
  private readonly _room: Room;
  private readonly _ready: Promise<void> = Promise.resolve();
  private _loadError = '';

  constructor(enabled: boolean, room: Room, events: Emitter<TRTCEventTypes>) {
    this._enabled = enabled;
    this._room = room;
    if (!enabled || !encodedStreamsSupported()) return;
    this._ready = importOnce<{ SeiChannel: typeof SeiChannel }>(`${DEFAULT_SERVER_ORIGIN}/sdk/assets/sei-channel.js`).then((module) => {
      const channel = new module.SeiChannel(events, log);
      this._channel = channel;
      room.frames.sei = channel;
    }, (error: unknown) => {
      this._loadError = String(error);
      log.warn('SEI is off: its module failed to load:', error);
    });
  }

  /** Resolves once SEI's steps are in the room's frame pipes (or SEI is off); never rejects. */
  ready(): Promise<void> {
    return this._ready;
  }

  /**
   * Queues an SEI message for the next frames of the published camera (or screen) video.
   * @param published the local track of that stream, if started.
   * @throws RtcError as TRTC.sendSEIMessage documents.
   */
  send(buffer: ArrayBuffer, options: SEIMessageOptions | undefined, published: (streamType: 'main' | 'sub') => MediaStreamTrack | undefined): void {
    const { seiPayloadType, toSubStream } = validateSEI(buffer, options);
    if (!this._enabled) throw invalidOperation(EXTRA_CODE.NOT_ENABLE_SEI, 'SEI is not enabled: create the client with TRTC.create({ enableSEI: true })', FN);
    if (!this._channel) throw envNotSupported(EXTRA_CODE.SEI, this._loadError ? `SEI failed to load: ${this._loadError}` : 'this browser cannot insert SEI (no encoded transforms)', FN);
    if (!this._room.machine.is('joined')) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() before sendSEIMessage()', FN);
    const streamType = toSubStream ? 'sub' : 'main';
    const slot = toSubStream ? 'aux' : 'video';
    const sender = this._room.publisher.peerConnection?.getTransceivers()[UPLINK_SLOTS.indexOf(slot)]?.sender;
    if (!published(streamType) || !sender?.track) throw invalidOperation(EXTRA_CODE.NEED_CALL_PUBLISHED, 'SEI messages need H264, a published stream and a video track', FN);
    const codec = sender.getParameters().codecs?.[0]?.mimeType;
    if (codec && codec.toLowerCase() !== 'video/h264') throw envNotSupported(EXTRA_CODE.SEI, `SEI messages need H264, a published stream and a video track (the stream is ${codec})`, FN);
    if (!this._channel.admit(buffer.byteLength)) throw invalidOperation(undefined, MESSAGE.CALL_FREQUENCY, FN);
    this._channel.enqueue(streamType, new Uint8Array(buffer.slice(0)), seiPayloadType);
  }
}
