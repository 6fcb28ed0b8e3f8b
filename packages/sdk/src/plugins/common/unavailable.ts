import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';

/**
 * The refusal of a plugin this server cannot run: the original's "not supported" error (ENV_NOT_SUPPORTED,
 * 5200, as its plugins raise when the core lacks what they need) with a message naming what is missing.
 * A rejected promise, never a throw: startPlugin's caller gets it as it would any other failure.
 */
export function unavailable(context: PluginContext, plugin: string, functionName: string, missing: string): Promise<never> {
  const message = `${plugin} is not supported here: ${missing}`;
  context.log.warn(message);
  return Promise.reject(context.errors({ code: ERROR_CODE.ENV_NOT_SUPPORTED, extraCode: EXTRA_CODE.PLUGIN, message, functionName }));
}

/** What a self-hosted Conclave server lacks for plugins backed by the vendor's paid cloud (SDK README). */
export const VENDOR_CLOUD = 'it needs the vendor\'s paid cloud service, which a self-hosted Conclave server does not have';

/** For plugins whose server side Conclave has not built yet. */
export const NOT_ON_THIS_SERVER = 'not yet available on this server (its server side is not implemented in Conclave yet)';

/** For plugins whose browser side Conclave has not built yet (the path exists so apps bundle). */
export const NOT_IMPLEMENTED = 'not yet implemented in Conclave (the module exists so apps bundle and register it)';
