import type { Logger } from 'pino';
import type { ServerConfig } from '../config/config.js';
import { EmbeddedEngine } from './embedded/embedded-engine.js';
import { JanusEngine } from './janus/janus-engine.js';
import type { MediaEngine } from './media-engine.js';

export { JanusMissingError } from './janus/janus-config.js';

/**
 * The media engine the configuration names: 'embedded' (default; werift in this process) or 'janus'
 * (spawns and supervises Janus, or attaches to `janusUrl`). Throws JanusMissingError, naming the Debian
 * package, when Janus is wanted but not installed.
 */
export async function createEngine(config: ServerConfig, logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<MediaEngine> {
  if (config.engine === 'janus') {
    return JanusEngine.start({
      url: config.janusUrl,
      secret: config.janusSecret,
      iceAddress: config.iceAddress,
      announcedAddress: config.announcedAddress,
      portRange: config.mediaPorts,
      logger,
      env,
    });
  }
  return new EmbeddedEngine({
    downlinkAllocator: config.downlinkAllocator ?? true,
    iceAddress: config.iceAddress, ...(config.mediaPorts ? { icePortRange: config.mediaPorts } : {}), ...(config.announcedAddress ? { announcedAddress: config.announcedAddress } : {}),
  });
}
