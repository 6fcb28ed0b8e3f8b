import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RelayCredential } from '../media-engine.js';

/** How long a credential minted without a lifetime holds (a relay is set up within seconds; 60 s leaves slack). */
export const RELAY_CREDENTIAL_TTL_MS = 60_000;

function mac(secret: string, sourceId: string, nodeId: string, expiresAt: number): string {
  return createHmac('sha256', secret).update(`relay\n${sourceId}\n${nodeId}\n${expiresAt}`).digest('hex');
}

/**
 * What the cluster layer hands an importing node to pull `sourceId` (media-engine.ts RelayCredential): an
 * HMAC-SHA256 with the cluster secret (cluster/node-signature.ts's) over the source, the node and the expiry.
 */
export function mintRelayCredential(secret: string, sourceId: string, nodeId: string, ttlMs = RELAY_CREDENTIAL_TTL_MS, now = Date.now()): RelayCredential {
  const expiresAt = now + ttlMs;
  return { nodeId, expiresAt, token: mac(secret, sourceId, nodeId, expiresAt) };
}

/** Why a credential is refused, or undefined when it is good for `sourceId` now. */
export function relayCredentialFault(secret: string | undefined, sourceId: string, credential: RelayCredential, now = Date.now()): string | undefined {
  if (secret === undefined || secret === '') return 'this engine has no cluster secret: it exports to no node';
  if (!/^[0-9a-f]{64}$/.test(credential.token)) return 'the relay credential is malformed';
  if (!Number.isSafeInteger(credential.expiresAt) || credential.expiresAt < now) return 'the relay credential has expired';
  const expected = Buffer.from(mac(secret, sourceId, credential.nodeId, credential.expiresAt), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(credential.token, 'hex'))) return 'the relay credential is not the cluster\'s';
  return undefined;
}
