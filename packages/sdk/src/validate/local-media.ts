import { validateLocalAudioConfig } from '../media/local-audio.js';
import { validateLocalVideoConfig } from '../media/local-video.js';
import { validateScreenShareConfig } from '../media/screen-share.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import { resolveView } from '../playback/view.js';
import type { LocalAudioConfig, LocalVideoConfig, ScreenShareConfig, UpdateLocalAudioConfig, UpdateScreenShareConfig } from '../types.js';
import { lenientLocalAudio, lenientLocalVideo, lenientScreenShare } from './lenient.js';

type Phase = 'start' | 'update';

/** What the three share: `view` names elements in the document (checked now, not after capture), `publish` is a boolean. */
function checkCommon(config: { view?: unknown; publish?: unknown }, functionName: string): void {
  if (config.view !== undefined) resolveView(config.view as never, functionName);
  if (config.publish !== undefined && typeof config.publish !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'publish must be a boolean', functionName);
}

/** start/updateLocalVideo's config as used: read leniently (update requires one), then checked. */
export function prepareLocalVideo(config: LocalVideoConfig | undefined, functionName: string, phase: Phase): LocalVideoConfig {
  const read = lenientLocalVideo(config, functionName, phase === 'update');
  checkCommon(read, functionName);
  validateLocalVideoConfig(read, functionName);
  return read;
}

/** start/updateLocalAudio's config as used. */
export function prepareLocalAudio(config: LocalAudioConfig | UpdateLocalAudioConfig | undefined, functionName: string, phase: Phase): LocalAudioConfig & UpdateLocalAudioConfig {
  const read = lenientLocalAudio(config, functionName, phase === 'update');
  checkCommon(read, functionName);
  validateLocalAudioConfig(read, functionName);
  return read as LocalAudioConfig & UpdateLocalAudioConfig;
}

/** start/updateScreenShare's config as used. */
export function prepareScreenShare(config: ScreenShareConfig | UpdateScreenShareConfig | undefined, functionName: string, phase: Phase): ScreenShareConfig & UpdateScreenShareConfig {
  const read = lenientScreenShare(config, functionName, phase === 'update');
  checkCommon(read, functionName);
  validateScreenShareConfig(read, functionName);
  return read as ScreenShareConfig & UpdateScreenShareConfig;
}
