import { ResourceQueue } from '../common/resource-queue.js';
import { log } from '../log/logger.js';

/** A local media resource (camera, microphone, screen share) as the client drives it. */
export interface LocalMediaResource<StartConfig, UpdateConfig> {
  start(config: StartConfig): Promise<void>;
  update(config: UpdateConfig): Promise<void>;
  stop(): Promise<void>;
}

/** What differs between the camera, the microphone and the screen share. */
export interface LocalResourceKind<T extends LocalMediaResource<S, U>, S, U> {
  /** For messages: 'camera', 'microphone', 'screen share'. */
  name: string;
  /** The extraCode of an update before start (NEED_VIDEO / NEED_AUDIO). */
  notStartedCode: number;
  /**
   * Reads a call's config as the original would (leniency, defaults) and checks it; returns what to
   * use. Throws RtcError INVALID_PARAMETER for a bad config.
   */
  prepare(config: S | U | undefined, functionName: string, phase: 'start' | 'update'): S & U;
  /** Throws RtcError when the call is not allowed now (an audience publishing, a second screen share…). */
  check?(config: S | U | undefined, functionName: string, phase: 'start' | 'update'): void;
  create(): T;
}

/**
 * The start / update / stop trio of one local resource (SPEC §4): validation, the permission check,
 * then the operation serialised on the resource's queue. A failed start releases what it captured.
 */
export class LocalResource<T extends LocalMediaResource<S, U>, S, U> {
  readonly #kind: LocalResourceKind<T, S, U>;
  readonly #queue: ResourceQueue;
  #current: T | undefined;

  constructor(kind: LocalResourceKind<T, S, U>) {
    this.#kind = kind;
    this.#queue = new ResourceQueue(kind.name);
  }

  /** The started (or starting) resource, if any. */
  get current(): T | undefined {
    return this.#current;
  }

  start(functionName: string, config: S | undefined): Promise<void> {
    const checked: S = this.#kind.prepare(config, functionName, 'start');
    this.#kind.check?.(checked, functionName, 'start');
    return this.#queue.start(functionName, async () => {
      const resource = this.#kind.create();
      this.#current = resource;
      try {
        await resource.start(checked);
      } catch (error) {
        if (this.#current === resource) this.#current = undefined;
        await resource.stop().catch((stopError: unknown) => log.warn(`releasing the ${this.#kind.name} after a failed start failed:`, stopError));
        throw error;
      }
    });
  }

  update(functionName: string, config: U | undefined): Promise<void> {
    const checked: U = this.#kind.prepare(config, functionName, 'update');
    this.#kind.check?.(checked, functionName, 'update');
    return this.#queue.update(functionName, this.#kind.notStartedCode, async () => this.#current?.update(checked));
  }

  /** Stops; repeated calls are merged. */
  stop(): Promise<void> {
    return this.#queue.stop(async () => {
      const resource = this.#current;
      this.#current = undefined;
      await resource?.stop();
    });
  }

  /** Stops without waiting (the client is destroyed); a failure is only logged. */
  release(): void {
    this.#current?.stop().catch((error: unknown) => log.warn(`stopping the ${this.#kind.name} failed:`, error));
  }
}
