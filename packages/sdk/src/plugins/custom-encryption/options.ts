/** The option shapes of the CustomEncryption plugin (the original's). */

/** The built-in ciphers ('AES-GCM' is AES-128-GCM). */
export type Algorithm = 'AES-GCM' | 'AES-128-GCM' | 'AES-256-GCM' | 'SM4';

/** An app's own cipher: one function per direction, over a frame's payload. */
export type Cryptor = (data: Uint8Array) => Uint8Array;

/** An app's own encryptor and decryptor. */
export interface CustomCryptors {
  encryptor: Cryptor;
  decryptor: Cryptor;
}

/** A built-in cipher with its key. */
export interface BuiltinOptions {
  algorithm: Algorithm;
  secretKey: Uint8Array;
  salt?: Uint8Array;
}

/** Options of startPlugin / updatePlugin / stopPlugin('CustomEncryption'): customCryptors or builtinOptions. */
export interface EncryptionOptions {
  customCryptors?: CustomCryptors;
  builtinOptions?: BuiltinOptions;
  mode: 'webrtc' | 'udt3';
  audio: boolean;
  video: boolean;
}
