/** The Chorus plugin: `import { Chorus } from '@conclave/sdk/plugins/chorus'` (refuses: vendor cloud). */
import { Chorus } from './chorus.js';

export { Chorus };
export type { StartChorusOption, UpdateChorusOption } from './chorus.js';
export default Chorus;
