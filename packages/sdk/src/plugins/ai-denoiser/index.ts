/** The AIDenoiser plugin (built in: `trtc.startPlugin('AIDenoiser', {sdkAppId, userId, userSig})`). */
import { AIDenoiser } from './ai-denoiser.js';

export { AIDenoiser };
export type { AIDenoiserOptions, DenoiserMode, UpdateDenoiserOptions } from './ai-denoiser.js';
export default AIDenoiser;
