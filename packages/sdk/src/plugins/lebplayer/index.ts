/** The LEBPlayer plugin: `import { LEBPlayer } from '@conclave/sdk/plugins/lebplayer'` (plays WHEP URLs). */
import { LEBPlayer } from './lebplayer.js';

export { LEBPlayer };
export type * from './options.js';
export default LEBPlayer;
