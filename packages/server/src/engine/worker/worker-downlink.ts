import { EngineError, type DownlinkMids, type DownlinkNegotiator, type SubscriptionWants } from '../media-engine.js';
import { negotiationFailure } from '../subscriber-downlinks.js';
import type { WorkerProcess } from './worker-process.js';

/**
 * A subscriber's one downlink in the worker, as the server sees it: which sources it carries, and its
 * negotiations, serialised (the worker offers m-lines, the client answers through `negotiate`).
 */
export class WorkerDownlink {
  readonly #worker: WorkerProcess;
  readonly #subscriberId: string;
  readonly #onFailed: (detail: string) => void;
  readonly #sources = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(worker: WorkerProcess, subscriberId: string, onFailed: (detail: string) => void) {
    this.#worker = worker;
    this.#subscriberId = subscriberId;
    this.#onFailed = onFailed;
  }

  get sources(): number {
    return this.#sources.size;
  }

  has(sourceId: string): boolean {
    return this.#sources.has(sourceId);
  }

  /** Resolves with the group's mids once usable: at once for a reused group, once the offer adding it went to the client otherwise. */
  subscribe(sourceId: string, wants: SubscriptionWants, negotiate: DownlinkNegotiator): Promise<DownlinkMids> {
    return new Promise((resolve, reject) => {
      this.#queue = this.#queue.then(async () => {
        if (this.#closed) throw new EngineError('closed', 'downlink closed');
        const reply = await this.#worker.request('subscribe', { subscriber: this.#subscriberId, source: sourceId, wants });
        this.#sources.add(sourceId);
        resolve(reply.mids as DownlinkMids);
        if (typeof reply.offer !== 'string') return;
        const answer = await negotiate(reply.offer);
        if (this.#closed) return;
        await this.#worker.request('answer', { subscriber: this.#subscriberId, answer });
      }).catch((error: unknown) => {
        const failure = negotiationFailure(error, this.#closed);
        reject(failure.error);
        if (!this.#closed) this.#onFailed(failure.detail);
      });
    });
  }

  update(sourceId: string, wants: SubscriptionWants): Promise<void> {
    return this.#worker.request('update', { subscriber: this.#subscriberId, source: sourceId, wants }).then(() => undefined);
  }

  /** Ends one subscription; its group stays for the next source. */
  unsubscribe(sourceId: string): Promise<void> {
    if (!this.#sources.delete(sourceId)) return Promise.resolve();
    return this.#worker.request('unsubscribe', { subscriber: this.#subscriberId, source: sourceId }).then(() => undefined);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sources.clear();
    this.#worker.request('closeDownlink', { subscriber: this.#subscriberId }).catch(() => undefined); // a worker down holds no downlink
  }
}
