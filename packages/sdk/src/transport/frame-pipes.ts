/**
 * The one place where encoded frames of the room's senders and receivers are piped (docs/behaviour.md §12):
 * SEI insertion / extraction, the decoder fallback's tap and a plugin's frame cipher (CustomEncryption) share one
 * pipe per sender / receiver, in a fixed order — on send SEI is inserted, then the cipher encrypts (last step);
 * on receive the cipher decrypts (first step), then SEI is read, then the decode tap copies. Peer connections are
 * created with encoded streams only when SEI is on or a cipher is set at that moment: a browser takes a
 * sender's / receiver's streams once, so a cipher set later cannot reach a link made without them.
 */
import { log } from '../log/logger.js';
import { pipedDecodeTap } from '../playback/decode-tap.js';

/** An encoded frame as the encoded-transform API hands it over. */
export interface EncodedFrame {
  data: ArrayBuffer;
  type?: string;
  timestamp: number;
  getMetadata?: () => { width?: number; height?: number; mimeType?: string; payloadType?: number };
}

/** A step on one frame (may change `frame.data`); false drops the frame. */
export type FrameStep = (frame: EncodedFrame) => boolean | void;

/** The media kind of a frame. */
export type FrameKind = 'audio' | 'video';

/**
 * A plugin's cipher over every published and received frame: each call changes `frame.data` in place and
 * resolves true to pass the frame on, false to drop it (a frame that does not decrypt must never reach a decoder).
 */
export interface FrameCipher {
  encrypt(frame: EncodedFrame, kind: FrameKind): boolean | Promise<boolean>;
  decrypt(frame: EncodedFrame, kind: FrameKind): boolean | Promise<boolean>;
}

/** SEI's steps per slot (sei/sei-channel.ts). */
export interface SeiSteps {
  sender(slot: string): FrameStep | undefined;
  /** `userId` is read at each frame: a downlink m-line carries different users over time. */
  receiver(userId: () => string, slot: string): FrameStep | undefined;
}

/** Pipes the encoded frames of senders and receivers (what RoomContext.encoded hands the links). */
export interface EncodedHooks {
  sender(slot: 'audio' | 'video' | 'small' | 'aux', sender: RTCRtpSender): void;
  receiver(userId: () => string, slot: 'audio' | 'video' | 'aux', receiver: RTCRtpReceiver): void;
}

interface EncodedStreams {
  readable: ReadableStream<EncodedFrame>;
  writable: WritableStream<EncodedFrame>;
}

type WithEncodedStreams = { createEncodedStreams?: () => EncodedStreams };

/** True when this browser offers encoded streams on senders (createEncodedStreams). */
export function encodedStreamsSupported(): boolean {
  return typeof RTCRtpSender !== 'undefined' && typeof (RTCRtpSender.prototype as WithEncodedStreams).createEncodedStreams === 'function';
}

type AnyStep = (frame: EncodedFrame) => boolean | void | Promise<boolean>;

/** Pipes a sender's / receiver's encoded frames through `steps` in order; a step returning false drops the frame. */
function pipe(target: WithEncodedStreams, steps: (AnyStep | undefined)[]): void {
  const chain = steps.filter((step): step is AnyStep => step !== undefined);
  // Up to its first await the function runs now, so the streams are taken at once. No failure may go unseen: streams
  // missing, taken already or refused (the link's frames pass unpiped: no SEI, no cipher; links get these hooks only
  // where senders have encoded streams), or a step that threw (the link's media stops).
  void (async () => {
    const streams = target.createEncodedStreams!();
    await streams.readable.pipeThrough(new TransformStream<EncodedFrame, EncodedFrame>({
      async transform(frame, controller) {
        for (const step of chain) {
          const result = step(frame);
          // Synchronous steps (SEI, the tap) stay synchronous; only a cipher's promise is awaited.
          if ((result instanceof Promise ? await result : result) === false) return;
        }
        controller.enqueue(frame);
      },
    })).pipeTo(streams.writable);
  })().catch((error: unknown) => log.warn('encoded frames failed:', error));
}

/** One room's frame pipes: SEI's steps (set by the client with enableSEI) and a plugin's cipher. */
export class FramePipes {
  /** SEI's steps, when create({enableSEI: true}) and the browser has encoded streams. */
  sei: SeiSteps | undefined;
  private _cipher: FrameCipher | undefined;
  /** A link of this session was made without encoded streams: a cipher cannot reach it. */
  private _plainLinks = false;

  /** The hooks a new link pipes its senders / receivers with; undefined (no encoded streams) when nothing pipes. */
  hooks(): EncodedHooks | undefined {
    if (!this.sei && !this._cipher) {
      this._plainLinks = true;
      return undefined;
    }
    // The cipher is read at each frame: stopping or updating the plugin changes live links.
    const cipher = () => this._cipher;
    return {
      sender: (slot, sender) => {
        const kind: FrameKind = slot === 'audio' ? 'audio' : 'video';
        pipe(sender as unknown as WithEncodedStreams, [this.sei?.sender(slot), (frame) => cipher()?.encrypt(frame, kind) ?? true]);
      },
      receiver: (userId, slot, receiver) => {
        const kind: FrameKind = slot === 'audio' ? 'audio' : 'video';
        // The decoder fallback's tap rides on this pipe (see playback/decode-tap.ts), after decryption.
        const tap = kind === 'video' ? pipedDecodeTap(receiver) : undefined;
        pipe(receiver as unknown as WithEncodedStreams, [(frame) => cipher()?.decrypt(frame, kind) ?? true, this.sei?.receiver(userId, slot), tap]);
      },
    };
  }

  /**
   * Sets (or with undefined removes) the cipher. False when it cannot apply: the browser has no encoded streams,
   * or a link of this session was already made without them (start the cipher before enterRoom).
   */
  setCipher(cipher: FrameCipher | undefined): boolean {
    if (cipher && (!encodedStreamsSupported() || this._plainLinks)) return false;
    this._cipher = cipher;
    return true;
  }

  /** True while a cipher is set: the server is told (publish `encrypted`, subscribe `decrypts`). */
  ciphered(): boolean {
    return this._cipher !== undefined;
  }

  /** The links were closed (left the room): the next ones are made afresh. */
  reset(): void {
    this._plainLinks = false;
  }
}
