/** The CrossRoom plugin: `import { CrossRoom } from '@conclave/sdk/plugins/cross-room'` (docs/behaviour.md §7.6). */
import { CrossRoom } from './cross-room.js';

export { CrossRoom };
export type { StartCrossRoomOption, UpdateCrossRoomOption, UpdateCrossRoomOptionItem, StopCrossRoomOption } from './cross-room.js';
export default CrossRoom;
