import { ROLE_CODE } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, operationFailed } from '../errors/catalogue.js';
import type { SignalChannel } from '../signal/signal-channel.js';
import type { Room } from './room.js';

/** switchRole's options. */
export interface SwitchRoleOption {
  privateMapKey?: string;
  latencyLevel?: number;
}

/**
 * Switches role in the live scene (docs/behaviour.md §6) on the joined room's channel: to audience closes the
 * uplink first; to anchor publishes the local tracks that were waiting.
 */
export async function switchRole(room: Room, signal: SignalChannel | undefined, role: 'anchor' | 'audience', option: SwitchRoleOption): Promise<void> {
  if (room.machine.state !== 'joined' || !signal) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'switchRole can only be called while joining or joined', 'switchRole');
  if (role === room.role) return;
  const code = role === 'anchor' ? ROLE_CODE.anchor : ROLE_CODE.audience;
  try {
    if (role === 'audience') {
      room.publisher.closeUplink();
      await signal.request('unpublish', {});
    }
    const { privateMapKey, latencyLevel } = option;
    await signal.request('switch-role', { role: code, ...(privateMapKey ? { privateMapKey } : {}), ...(latencyLevel !== undefined ? { latencyLevel } : {}) });
  } catch (error) {
    throw operationFailed(undefined, `switch role failed: ${(error as Error).message}`, 'switchRole', error);
  }
  room.role = role;
  if (role === 'anchor') await room.publisher.publishPending();
}
