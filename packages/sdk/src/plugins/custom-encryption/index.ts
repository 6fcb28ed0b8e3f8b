/** The CustomEncryption plugin: `import { CustomEncryption } from '@conclave/sdk/plugins/custom-encryption'`. */
import { CustomEncryption } from './custom-encryption.js';

export { CustomEncryption };
export type { Algorithm, BuiltinOptions, Cryptor, CustomCryptors, EncryptionOptions } from './options.js';
export default CustomEncryption;
