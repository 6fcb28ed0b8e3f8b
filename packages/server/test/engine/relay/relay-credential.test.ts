import { describe, expect, it } from 'vitest';
import { mintRelayCredential, relayCredentialFault } from '../../../src/engine/relay/relay-credential.js';

describe('39 relay credential', () => {
  const secret = 'cluster-secret';
  const now = 1_700_000_000_000;

  it('39 relay credential: one minted with the cluster secret is good for its source until it expires', () => {
    const credential = mintRelayCredential(secret, 'source-1', 'node-b', 60_000, now);
    expect(relayCredentialFault(secret, 'source-1', credential, now + 59_999)).toBeUndefined();
    expect(relayCredentialFault(secret, 'source-1', credential, now + 60_001)).toMatch(/expired/);
  });

  it('39 relay credential: another secret, source, node or a changed expiry is refused, and an engine without a secret refuses all', () => {
    const credential = mintRelayCredential(secret, 'source-1', 'node-b', 60_000, now);
    expect(relayCredentialFault('another-secret', 'source-1', credential, now)).toMatch(/not the cluster's/);
    expect(relayCredentialFault(secret, 'source-2', credential, now)).toMatch(/not the cluster's/);
    expect(relayCredentialFault(secret, 'source-1', { ...credential, nodeId: 'node-c' }, now)).toMatch(/not the cluster's/);
    expect(relayCredentialFault(secret, 'source-1', { ...credential, expiresAt: credential.expiresAt + 1 }, now)).toMatch(/not the cluster's/);
    expect(relayCredentialFault(secret, 'source-1', { ...credential, token: 'zz' }, now)).toMatch(/malformed/);
    expect(relayCredentialFault(undefined, 'source-1', credential, now)).toMatch(/no cluster secret/);
  });
});
