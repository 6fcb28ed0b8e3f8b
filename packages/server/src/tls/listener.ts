import { readFileSync } from 'node:fs';
import { createServer as createHttp, type RequestListener, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { ConfigError, type ServerConfig } from '../config/config.js';

/** Reads a PEM file named by the configuration; a missing or unreadable file is a ConfigError naming it. */
function readPem(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`CONCLAVE_TLS_${what.toUpperCase()}: cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * The server's listener: plain HTTP, or HTTPS when `tls` names a certificate and key, so the same port
 * serves https and wss (the WebSocket upgrade rides on the TLS connection).
 */
export function createListener(config: Pick<ServerConfig, 'tls'>, handler: RequestListener): Server {
  if (!config.tls) return createHttp(handler);
  const options = { cert: readPem(config.tls.cert, 'cert'), key: readPem(config.tls.key, 'key') };
  try {
    return createHttps(options, handler);
  } catch (error) {
    throw new ConfigError(`CONCLAVE_TLS_CERT / CONCLAVE_TLS_KEY: not a usable certificate and key: ${(error as Error).message}`);
  }
}
