/** The CDNStreaming plugin: `import { CDNStreaming } from '@conclave/sdk/plugins/cdn-streaming'`. */
import { CDNStreaming } from './cdn-streaming.js';

export { CDNStreaming };
export type { CDNStreamingOptions, CDNStreamingUser, CDNStreamingVideoLayout } from './options.js';
export default CDNStreaming;
