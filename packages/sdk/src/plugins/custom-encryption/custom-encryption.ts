import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { EncodedFrame, FrameCipher, FrameKind, PluginContext } from '../../plugin-api/index.js';
import { builtinCipher, CipherOptionsError, customCipher } from './ciphers.js';
import { layoutOf, openFrame, sealFrame, type RegionCipher } from './frame-layout.js';
import type { EncryptionOptions } from './options.js';

/** The frame cipher the plugin sets in the core's frame pipes. */
function frameCipher(region: RegionCipher, options: EncryptionOptions, onError: (error: unknown) => void): FrameCipher {
  const mode = options.mode === 'udt3' ? 'udt3' : 'webrtc';
  const applies = (kind: FrameKind) => (kind === 'audio' ? options.audio !== false : options.video !== false);
  const run = async (frame: EncodedFrame, kind: FrameKind, seal: boolean): Promise<boolean> => {
    if (!applies(kind)) return true;
    const data = new Uint8Array(frame.data);
    const layout = layoutOf(kind, data, frame.getMetadata?.().mimeType, mode);
    try {
      const out = await (seal ? sealFrame : openFrame)(data, layout, frame.type === 'key', region);
      if (!out) return false;
      frame.data = out.slice().buffer;
      return true;
    } catch (error) {
      // A cryptor that throws drops the frame: nothing clear goes out, nothing undecrypted reaches a decoder.
      onError(error);
      return false;
    }
  };
  return {
    encrypt: (frame, kind) => run(frame, kind, true),
    decrypt: (frame, kind) => run(frame, kind, false),
  };
}

/**
 * The CustomEncryption plugin (trtc-sdk-v5's plugins/custom-encryption): end-to-end encryption of the published
 * audio and video and decryption of what is received, with encoded transforms (docs/behaviour.md §12). Start it
 * before enterRoom: the room's links are then made with encoded streams, every published frame is encrypted last
 * (after SEI) and every received frame decrypted first. Frames that do not decrypt are dropped.
 */
export class CustomEncryption {
  static readonly Name = 'CustomEncryption';
  private readonly _ctx: PluginContext;
  private _warned = false;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /**
   * Starts encrypting and decrypting with `customCryptors` or `builtinOptions` (AES-GCM 128/256, SM4).
   * @throws INVALID_PARAMETER (5000) for missing / wrong options or key; INVALID_OPERATION (5100) when the room's
   * links were already made without encoded streams (start the plugin before enterRoom); ENV_NOT_SUPPORTED (5200)
   * without encoded transforms in this browser.
   */
  async start(options: EncryptionOptions): Promise<void> {
    const cipher = await this._cipher(options, 'startPlugin');
    if (!this._ctx.frames.setCipher(cipher)) {
      const supported = typeof RTCRtpSender !== 'undefined' && 'createEncodedStreams' in RTCRtpSender.prototype;
      throw supported
        ? this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, message: 'start CustomEncryption before enterRoom(): the room\'s connections were made without encoded transforms', functionName: 'startPlugin' })
        : this._ctx.errors({ code: ERROR_CODE.ENV_NOT_SUPPORTED, extraCode: EXTRA_CODE.PLUGIN, message: 'CustomEncryption needs encoded transforms (createEncodedStreams), which this browser lacks', functionName: 'startPlugin' });
    }
  }

  /** Replaces the cipher (a new key); frames in flight finish with the old one. @throws as start. */
  update(options: EncryptionOptions): Promise<void> {
    return this.start(options);
  }

  /** Stops: frames go out and are taken in the clear again. */
  stop(_options?: EncryptionOptions): Promise<void> {
    this._ctx.frames.setCipher(undefined);
    return Promise.resolve();
  }

  private async _cipher(options: EncryptionOptions, functionName: string): Promise<FrameCipher> {
    const invalid = (message: string) => this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.TYPE, message, functionName });
    if (typeof options !== 'object' || options === null) throw invalid('CustomEncryption needs options: { customCryptors } or { builtinOptions }');
    const { customCryptors, builtinOptions } = options;
    let region: RegionCipher;
    if (customCryptors) {
      if (typeof customCryptors.encryptor !== 'function' || typeof customCryptors.decryptor !== 'function') throw invalid('customCryptors needs encryptor and decryptor functions');
      region = customCipher(customCryptors);
    } else if (builtinOptions) {
      try {
        region = await builtinCipher(builtinOptions.algorithm, builtinOptions.secretKey, builtinOptions.salt);
      } catch (error) {
        if (error instanceof CipherOptionsError) throw invalid(error.message);
        throw error;
      }
    } else {
      throw invalid('CustomEncryption needs customCryptors or builtinOptions');
    }
    return frameCipher(region, options, (error) => {
      if (this._warned) return;
      this._warned = true;
      this._ctx.log.warn('CustomEncryption: a frame failed to encrypt or decrypt and was dropped:', error);
    });
  }
}
