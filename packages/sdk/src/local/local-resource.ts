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
 * The start / update / stop trio of one local resource (docs/behaviour.md §4): validation, the permission check,
 * then the operation serialised on the resource's queue. A failed start releases what it captured.
 */
export class LocalResource<T extends LocalMediaResource<S, U>, S, U> {
  private readonly _kind: LocalResourceKind<T, S, U>;
  private readonly _queue: ResourceQueue;
  private _current: T | undefined;

  constructor(kind: LocalResourceKind<T, S, U>) {
    this._kind = kind;
    this._queue = new ResourceQueue(kind.name);
  }

  /** The started (or starting) resource, if any. */
  get current(): T | undefined {
    return this._current;
  }

  start(functionName: string, config: S | undefined): Promise<void> {
    const checked: S = this._kind.prepare(config, functionName, 'start');
    this._kind.check?.(checked, functionName, 'start');
    return this._queue.start(functionName, async () => {
      const resource = this._kind.create();
      this._current = resource;
      try {
        await resource.start(checked);
      } catch (error) {
        if (this._current === resource) this._current = undefined;
        await resource.stop().catch((stopError: unknown) => log.warn(`releasing the ${this._kind.name} after a failed start failed:`, stopError));
        throw error;
      }
    });
  }

  update(functionName: string, config: U | undefined): Promise<void> {
    const checked: U = this._kind.prepare(config, functionName, 'update');
    this._kind.check?.(checked, functionName, 'update');
    return this._queue.update(functionName, this._kind.notStartedCode, async () => this._current?.update(checked));
  }

  /** Stops; repeated calls are merged. */
  stop(): Promise<void> {
    return this._queue.stop(async () => {
      const resource = this._current;
      this._current = undefined;
      await resource?.stop();
    });
  }

  /** Stops without waiting (the client is destroyed); a failure is only logged. */
  release(): void {
    this._current?.stop().catch((error: unknown) => log.warn(`stopping the ${this._kind.name} failed:`, error));
  }
}
