/** The AudioMixer plugin (built in: `trtc.startPlugin('AudioMixer', …)` needs no registration). */
import { AudioMixer } from './audio-mixer.js';

export { AudioMixer };
export type { AudioMixerOptions, UpdateAudioMixerOptions, StopAudioMixerOptions } from './options.js';
export default AudioMixer;
