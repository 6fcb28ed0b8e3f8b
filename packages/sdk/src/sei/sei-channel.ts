import { LIMITS } from '@conclave/protocol';
import type { Emitter } from '../common/emitter.js';
import { log } from '../log/logger.js';
import { pipedDecodeTap } from '../playback/decode-tap.js';
import { RateWindow } from '../messages/rate-window.js';
import type { TRTCEventTypes } from '../types.js';
import { buildSeiNal, extractSei, insertSei, MAX_SEI_PER_FRAME, NotH26xFrame } from './nal.js';

/** An encoded frame as the encoded-transform API hands it over. */
interface EncodedFrame {
  data: ArrayBuffer;
}

/** The streams of an RTCRtpSender / RTCRtpReceiver created with encodedInsertableStreams. */
interface EncodedStreams {
  readable: ReadableStream<EncodedFrame>;
  writable: WritableStream<EncodedFrame>;
}

type WithEncodedStreams = { createEncodedStreams?: () => EncodedStreams };

/** The peer-connection option that makes senders and receivers expose encoded streams (Chromium). */
export const INSERTABLE_STREAMS_CONFIG = { encodedInsertableStreams: true } as const;

/** True when this browser offers encoded streams on senders (createEncodedStreams). */
export function encodedStreamsSupported(): boolean {
  return typeof RTCRtpSender !== 'undefined' && typeof (RTCRtpSender.prototype as WithEncodedStreams).createEncodedStreams === 'function';
}

/** Messages waiting for the next frames, per stream; more than this and the oldest are dropped. */
const MAX_QUEUED = 60;

/**
 * SEI messages in H264 video (create({enableSEI: true})): on send, queued messages become SEI NAL units
 * inserted before the first slice of the next frames (at most 9 per frame); on receive, SEI units of
 * payload types 5 and 243 become sei-message events with the same bytes. Every sender and receiver of
 * a connection created with encodedInsertableStreams must be piped, so audio is piped through unchanged.
 */
export class SeiChannel {
  private readonly _events: Emitter<TRTCEventTypes>;
  private readonly _queues: Record<'main' | 'sub', Uint8Array[]> = { main: [], sub: [] };
  private readonly _window = new RateWindow(LIMITS.MAX_CUSTOM_MESSAGES_PER_SECOND, LIMITS.MAX_CUSTOM_MESSAGE_BYTES_PER_SECOND);
  private _warned = false;

  constructor(events: Emitter<TRTCEventTypes>) {
    this._events = events;
  }

  /** Takes a message for the rate limits (30 messages, 8000 bytes per second); false when over. */
  admit(bytes: number): boolean {
    return this._window.take(bytes);
  }

  /** Queues a message for the next frames of a stream. */
  enqueue(streamType: 'main' | 'sub', payload: Uint8Array, payloadType: number): void {
    const queue = this._queues[streamType];
    queue.push(buildSeiNal(payload, payloadType));
    if (queue.length > MAX_QUEUED) queue.splice(0, queue.length - MAX_QUEUED);
  }

  /** Pipes a sender: main and auxiliary video get the SEI insertion, the rest passes through. */
  attachSender(slot: string, sender: RTCRtpSender): void {
    const streamType = slot === 'video' ? 'main' : slot === 'aux' ? 'sub' : undefined;
    this._pipe(sender as unknown as WithEncodedStreams, (frame) => {
      if (!streamType) return;
      const queue = this._queues[streamType];
      if (queue.length === 0) return;
      try {
        frame.data = insertSei(new Uint8Array(frame.data), queue.slice(0, MAX_SEI_PER_FRAME)).buffer as ArrayBuffer;
        queue.splice(0, MAX_SEI_PER_FRAME);
      } catch (error) {
        this._warnOnce(error);
      }
    });
  }

  /** Pipes a receiver of `userId` (read at each frame): SEI of main and auxiliary video becomes sei-message events. */
  attachReceiver(userId: string | (() => string), slot: string, receiver: RTCRtpReceiver): void {
    const streamType = slot === 'video' ? 'main' : slot === 'aux' ? 'sub' : undefined;
    // The video decoder fallback's tap rides on this pipe (see playback/decode-tap.ts).
    const tap = streamType ? pipedDecodeTap(receiver) : undefined;
    this._pipe(receiver as unknown as WithEncodedStreams, (frame) => {
      if (!streamType) return true;
      let messages: ReturnType<typeof extractSei> = [];
      try {
        messages = extractSei(new Uint8Array(frame.data));
      } catch (error) {
        this._warnOnce(error);
      }
      for (const message of messages) {
        this._events.emit('sei-message', { data: message.payload.slice().buffer, userId: typeof userId === 'function' ? userId() : userId, streamType, seiPayloadType: message.payloadType });
      }
      // After the SEI is read: a frame the tap withholds still delivered its messages.
      return tap ? tap(frame as EncodedFrame & { timestamp: number }) : true;
    });
  }

  private _warnOnce(error: unknown): void {
    if (this._warned) return;
    this._warned = true;
    log.warn(error instanceof NotH26xFrame ? 'SEI skipped: not h26x frame (the video codec is not H264)' : 'SEI processing failed:', error);
  }

  /** Pipes encoded frames through `onFrame`; a frame for which it returns false is dropped. */
  private _pipe(target: WithEncodedStreams, onFrame: (frame: EncodedFrame) => boolean | void): void {
    if (typeof target.createEncodedStreams !== 'function') return;
    let streams: EncodedStreams;
    try {
      streams = target.createEncodedStreams();
    } catch (error) {
      log.warn('encoded streams unavailable:', error);
      return;
    }
    streams.readable.pipeThrough(new TransformStream<EncodedFrame, EncodedFrame>({
      transform(frame, controller) {
        if (onFrame(frame) !== false) controller.enqueue(frame);
      },
    })).pipeTo(streams.writable).catch(() => undefined);
  }
}
