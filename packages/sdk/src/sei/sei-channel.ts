import { LIMITS } from '@conclave/protocol';
import type { Emitter } from '../common/emitter.js';
import type { log as coreLog } from '../log/logger.js';
import { RateWindow } from '../messages/rate-window.js';
import type { FrameStep, SeiSteps } from '../transport/frame-pipes.js';
import type { TRTCEventTypes } from '../types.js';
import { buildSeiNal, extractSei, insertSei, MAX_SEI_PER_FRAME, NotH26xFrame } from './nal.js';

/** Messages waiting for the next frames, per stream; more than this and the oldest are dropped. */
const MAX_QUEUED = 60;

/**
 * SEI messages in H264 video (create({enableSEI: true})): on send, queued messages become SEI NAL units
 * inserted before the first slice of the next frames (at most 9 per frame); on receive, SEI units of
 * payload types 5 and 243 become sei-message events with the same bytes. Its steps run in the room's frame
 * pipes (transport/frame-pipes.ts): inserted before encryption, read after decryption. It is an asset of the core,
 * loaded when a client enables SEI (sei-sender.ts; docs/architecture.md "SDK plugins"): it takes the core's logger.
 */
export class SeiChannel implements SeiSteps {
  private readonly _events: Emitter<TRTCEventTypes>;
  private readonly _queues: Record<'main' | 'sub', Uint8Array[]> = { main: [], sub: [] };
  private readonly _window = new RateWindow(LIMITS.MAX_CUSTOM_MESSAGES_PER_SECOND, LIMITS.MAX_CUSTOM_MESSAGE_BYTES_PER_SECOND);
  private _warned = false;

  private readonly _log: Pick<typeof coreLog, 'warn'>;

  constructor(events: Emitter<TRTCEventTypes>, log: Pick<typeof coreLog, 'warn'>) {
    this._events = events;
    this._log = log;
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

  /** The send step of a slot: main and auxiliary video get the SEI insertion, the rest none. */
  sender(slot: string): FrameStep | undefined {
    const streamType = slot === 'video' ? 'main' : slot === 'aux' ? 'sub' : undefined;
    if (!streamType) return undefined;
    return (frame) => {
      const queue = this._queues[streamType];
      if (queue.length === 0) return;
      try {
        frame.data = insertSei(new Uint8Array(frame.data), queue.slice(0, MAX_SEI_PER_FRAME)).buffer as ArrayBuffer;
        queue.splice(0, MAX_SEI_PER_FRAME);
      } catch (error) {
        this._warnOnce(error);
      }
    };
  }

  /** The receive step of a slot of `userId` (read at each frame): SEI of main and auxiliary video becomes sei-message events. */
  receiver(userId: () => string, slot: string): FrameStep | undefined {
    const streamType = slot === 'video' ? 'main' : slot === 'aux' ? 'sub' : undefined;
    if (!streamType) return undefined;
    return (frame) => {
      let messages: ReturnType<typeof extractSei> = [];
      try {
        messages = extractSei(new Uint8Array(frame.data));
      } catch (error) {
        this._warnOnce(error);
      }
      for (const message of messages) {
        this._events.emit('sei-message', { data: message.payload.slice().buffer, userId: userId(), streamType, seiPayloadType: message.payloadType });
      }
    };
  }

  private _warnOnce(error: unknown): void {
    if (this._warned) return;
    this._warned = true;
    this._log.warn(error instanceof NotH26xFrame ? 'SEI skipped: not h26x frame (the video codec is not H264)' : 'SEI processing failed:', error);
  }
}
