import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import { log } from '../log/logger.js';
import { importOnce } from '../loader/import-once.js';
import type * as HWEncoder from './hw-encoder.js';
import type { HWSlot, Uplink } from './uplink.js';

/**
 * The hardware encoder switch (hw-encoder.ts) stays out of the core bundle: it is loaded from the server's
 * /sdk/assets on first need — a preferHW session publishing 1280×720 or more — like the built-in plugins.
 */
let requested = false;

/**
 * Switches a slot's encoder (hw-encoder.ts's useHWEncoder) and logs the switch as the original does. Switching
 * back (enable false) needs nothing when the switch was never loaded: no slot left the default payload.
 */
export async function switchEncoder(uplink: Uplink, enable: boolean, slot: HWSlot): Promise<void> {
  if (!enable && !requested) return;
  requested = true;
  let done: HWEncoder.EncoderSwitch;
  try {
    const module = await importOnce<typeof HWEncoder>(`${DEFAULT_SERVER_ORIGIN}/sdk/assets/hw-encoder.js`);
    done = await module.useHWEncoder(uplink, enable, slot);
  } catch (error) {
    log.warn(`switching the ${slot} encoder to ${enable ? 'hw' : 'sw'} failed:`, error);
    return;
  }
  if (done) log.warn(`switch ${slot === 'aux' ? 'aux ' : ''}video encoder to ${enable ? 'hw' : 'sw'}: ${done.profile ? `H264 profile-level-id ${done.profile}` : 'the default codec'}`);
}
