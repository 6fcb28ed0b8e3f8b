/** The AudioPlayer plugin (5.18): `import AudioPlayer from 'trtc-sdk-v5/plugins/audio-player'`, or the UMD global `AudioPlayer`. */
import { AudioPlayer } from './audio-player.js';

export { AudioPlayer };
export { AudioSourceType } from './options.js';
export type { AudioPlayerContext, AudioPlayerOptions, AudioPlayerUpdateOptions, AudioPlayerStopOptions, AudioPlayerCallbacks, RealtimeOption } from '../../plugin-api/audio-player.js';
export default AudioPlayer;
