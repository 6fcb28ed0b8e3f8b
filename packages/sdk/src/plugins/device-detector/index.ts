/** The DeviceDetector plugin: `import { DeviceDetector } from '@conclave/sdk/plugins/device-detector'`. */
import { DeviceDetector } from './device-detector.js';

export { DeviceDetector };
export type { DeviceDetectorOptions, DeviceDetectorResult } from './options.js';
export default DeviceDetector;
