import { log } from '../log/logger.js';
import type { PermissionOption, PermissionResult } from '../types.js';

type Kind = 'camera' | 'microphone';

/** Permission statuses already queried (each watched for changes from then on, as the original does). */
const statuses = new Map<Kind, PermissionStatus>();
const listeners = new Set<(result: PermissionResult) => void>();

const snapshot = (): PermissionResult => ({
  camera: statuses.get('camera')?.state ?? null,
  microphone: statuses.get('microphone')?.state ?? null,
});
const changed = (): void => {
  const result = snapshot();
  for (const listener of listeners) listener(result);
};

/** The state of one permission; null where the browser cannot tell. */
async function stateOf(kind: Kind): Promise<PermissionState | null> {
  try {
    let status = statuses.get(kind);
    if (!status) {
      status = await navigator.permissions.query({ name: kind as PermissionName });
      status.addEventListener('change', changed);
      statuses.set(kind, status);
    }
    return status.state;
  } catch (error) {
    log.warn(`cannot query the ${kind} permission:`, error);
    return null;
  }
}

/**
 * TRTC.getPermissions: with `request` (default true) asks for the kinds given (a capture stopped at once; a
 * refusal is only logged), then answers each permission's state. Never rejects.
 */
export async function getPermissions(option: PermissionOption = {}): Promise<PermissionResult> {
  const request = option?.request !== false;
  const types = Array.isArray(option?.types) ? option.types : ['camera', 'microphone'];
  if (request && types.length > 0) {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: types.includes('camera'), audio: types.includes('microphone') });
      for (const track of stream.getTracks()) track.stop();
    } catch (error) {
      log.error('getPermissions request failed:', error);
    }
  }
  const [camera, microphone] = await Promise.all([stateOf('camera'), stateOf('microphone')]);
  return { camera, microphone };
}

/** Calls `listener` on every change of a permission getPermissions has read; returns its removal. */
export function onPermissionChange(listener: (result: PermissionResult) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
