/** The SmallStreamAutoSwitcher plugin: `import { SmallStreamAutoSwitcher } from '@conclave/sdk/plugins/small-stream-auto-switcher'`. */
import { SmallStreamAutoSwitcher } from './small-stream-auto-switcher.js';

export { SmallStreamAutoSwitcher };
export type { SmallStreamAutoSwitcherOptions } from './options.js';
export default SmallStreamAutoSwitcher;
