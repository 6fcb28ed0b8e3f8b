/** The RealtimeTranscriber plugin: `import { RealtimeTranscriber } from '@conclave/sdk/plugins/realtime-transcriber'`. */
import { RealtimeTranscriber } from './realtime-transcriber.js';

export { RealtimeTranscriber };
export type { StartRealtimeTranscriberOption, StopRealtimeTranscriberOption } from './realtime-transcriber.js';
export default RealtimeTranscriber;
