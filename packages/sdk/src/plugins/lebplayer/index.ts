/** The LEBPlayer plugin: `import { LEBPlayer } from '@conclave/sdk/plugins/lebplayer'` (not yet on this server). */
import { LEBPlayer } from './lebplayer.js';

export { LEBPlayer };
export type * from './options.js';
export default LEBPlayer;
