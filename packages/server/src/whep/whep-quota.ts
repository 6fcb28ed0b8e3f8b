import { SERVER_CODE } from '@conclave/protocol';
import type { LimitsConfig } from '../config/config.js';
import { HttpError } from '../http/respond.js';
import type { WhepSnapshot } from '../ops/metrics.js';

export type { WhepSnapshot };

/**
 * The quotas of WHEP playbacks and WHIP publishes (each holds peer connections and forwarding on this node):
 * `limits.whepSessionsPerApp` per app and `limits.whepSessionsPerNode` in all. A place is taken before the
 * offer is read and answered (so concurrent requests cannot pass the limit together) and freed when the session
 * ends or its request fails. Over a quota: 503 with WHEP_QUOTA_EXCEEDED, counted.
 */
export class WhepQuota {
  readonly #limits: Pick<LimitsConfig, 'whepSessionsPerApp' | 'whepSessionsPerNode'>;
  readonly #held = new Map<number, number>();
  #total = 0;
  /** Refusals so far, by quota. */
  readonly refusals = { app: 0, node: 0 };

  constructor(limits: Pick<LimitsConfig, 'whepSessionsPerApp' | 'whepSessionsPerNode'>) {
    this.#limits = limits;
  }

  /** Takes a place for a session of `sdkAppId`; returns what frees it (idempotent). Throws the 503 when there is none. */
  reserve(sdkAppId: number): () => void {
    const held = this.#held.get(sdkAppId) ?? 0;
    if (held >= this.#limits.whepSessionsPerApp) {
      this.refusals.app++;
      throw new HttpError(503, SERVER_CODE.WHEP_QUOTA_EXCEEDED, `this app has its ${this.#limits.whepSessionsPerApp} WHEP/WHIP sessions on this server (limits.whepSessionsPerApp): end one first`);
    }
    if (this.#total >= this.#limits.whepSessionsPerNode) {
      this.refusals.node++;
      throw new HttpError(503, SERVER_CODE.WHEP_QUOTA_EXCEEDED, `this server has its ${this.#limits.whepSessionsPerNode} WHEP/WHIP sessions (limits.whepSessionsPerNode): try again later`);
    }
    this.#held.set(sdkAppId, held + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const now = (this.#held.get(sdkAppId) ?? 1) - 1;
      if (now > 0) this.#held.set(sdkAppId, now);
      else this.#held.delete(sdkAppId);
    };
  }
}
