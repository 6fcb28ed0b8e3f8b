/** The debug dialog (built in; opened by `?trtcDebug=1` in the page URL or sessionStorage TRTC_ENABLE_DEBUG_PLUGIN = 'true'). */
import { Debug } from './debug.js';

export { Debug };
export default Debug;
