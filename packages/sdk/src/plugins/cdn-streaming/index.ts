/** The CDNStreaming plugin: `import { CDNStreaming } from '@conclave/sdk/plugins/cdn-streaming'`. */
import { CDNStreaming } from './cdn-streaming.js';

export { CDNStreaming };
import type { CDNStreamingOptions, CDNStreamingUser, CDNStreamingVideoLayout } from './options.js';

export type { CDNStreamingOptions, CDNStreamingUser, CDNStreamingVideoLayout };
/** The original's names for the option parts (its typings export them). */
export type Target = CDNStreamingOptions['target'];
export type Encoding = NonNullable<CDNStreamingOptions['encoding']>;
export type Mix = NonNullable<CDNStreamingOptions['mix']>;
export type User = CDNStreamingUser;
export type VideoLayout = CDNStreamingVideoLayout;
export type TRTCStreamType = 'main' | 'sub';
export type PublishMode = keyof typeof CDNStreaming.TYPE.PublishMode;
export default CDNStreaming;
