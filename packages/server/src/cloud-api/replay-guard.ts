import type { PriorUse } from '../cluster/cloud-api-forward.js';

export type { PriorUse };

/** Read-only actions: answering one again tells its sender what it could have asked anyway; nothing changes. */
export const isReadOnlyAction = (action: string): boolean => action.startsWith('Describe');

/**
 * Whether a request may act given how its signature was used before (docs/behaviour.md §10.3). The official
 * SDKs sign neither X-TC-Action nor anything unique, so a backend that sends one body with two actions in the
 * same second signs both alike: that is allowed from the address that used the signature first; from any other
 * address the signature is spent; the same write twice is refused (a replay), the same read answered again.
 */
export function mayAct(prior: PriorUse, action: string): boolean {
  return prior === 'first' || prior === 'new-action' || (prior === 'same-action' && isReadOnlyAction(action));
}

interface Use {
  address: string;
  actions: Set<string>;
  until: number;
}

/**
 * The cloud API signatures that acted, per SecretId, for as long as they could be accepted (X-TC-Timestamp +
 * the clock skew), with the address that first used each and the actions it was used for, so that a captured
 * request is not accepted again (a DescribeCloudRecording that would act as DeleteCloudRecording). A signature
 * is claimed only when its request runs (after the per-SecretId rate limit), so each SecretId holds at most
 * rate × (2 × skew + 1) entries; expired ones are dropped as new ones come.
 */
export class ReplayGuard {
  readonly #perKey = new Map<string, Map<string, Use>>();
  readonly #maxPerKey: number;

  /** `maxPerKey`: the most signatures one SecretId can have accepted within a window. */
  constructor(maxPerKey: number) {
    this.#maxPerKey = maxPerKey;
  }

  /**
   * Records a use of `signature` (kept until `untilSeconds`) and says how it was used before. Throws RangeError
   * when the SecretId's table is full of live signatures (which its rate limit rules out).
   */
  claim(secretId: string, signature: string, use: { address: string; action: string }, untilSeconds: number, nowSeconds: number): PriorUse {
    let seen = this.#perKey.get(secretId);
    if (!seen) this.#perKey.set(secretId, seen = new Map());
    const earlier = seen.get(signature);
    if (earlier && earlier.until >= nowSeconds) {
      if (earlier.address !== use.address) return 'other-address';
      if (earlier.actions.has(use.action)) return 'same-action';
      earlier.actions.add(use.action);
      return 'new-action';
    }
    // Oldest first; a signature stamped ahead of the clock may outlive later ones, so stop at the first live one.
    for (const [key, entry] of seen) {
      if (entry.until >= nowSeconds) break;
      seen.delete(key);
    }
    if (seen.size >= this.#maxPerKey) {
      for (const [key, entry] of seen) if (entry.until < nowSeconds) seen.delete(key);
      if (seen.size >= this.#maxPerKey) throw new RangeError('too many signatures to remember for this SecretId');
    }
    seen.delete(signature);
    seen.set(signature, { address: use.address, actions: new Set([use.action]), until: untilSeconds });
    return 'first';
  }
}
