/** The AudioPlayer plugin (5.18): `import AudioPlayer from 'trtc-sdk-v5/plugins/audio-player'`, or the UMD global `AudioPlayer`. */
import { AudioPlayer } from './audio-player.js';

export { AudioPlayer };
export { AudioPlayerContext } from './player.js';
export { AudioSourceType } from './options.js';
export type { AudioPlayerOptions, AudioPlayerUpdateOptions, AudioPlayerStopOptions, AudioPlayerCallbacks, RealtimeOption } from './options.js';
export default AudioPlayer;
