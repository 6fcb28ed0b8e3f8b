/** The VoiceChanger plugin: `import { VoiceChanger } from '@conclave/sdk/plugins/voice-changer'`. */
import { VoiceChanger } from './voice-changer.js';

export { VoiceChanger };
export type { VoiceChangerStartOptions, VoiceChangerUpdateOptions } from './options.js';
export default VoiceChanger;
