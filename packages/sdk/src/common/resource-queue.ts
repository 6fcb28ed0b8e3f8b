import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, operationAbort } from '../errors/catalogue.js';

type Intended = 'stopped' | 'started';

/** Runs async operations one after another, in call order; a failure does not stop the ones behind it. */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Queues `run`; resolves or rejects with its outcome. */
  run<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(run, run);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves once everything queued so far has run. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined, () => undefined);
  }
}

/**
 * Serialises start / update / stop of one local resource (SPEC §4): a repeated start is rejected as
 * a duplicate; an update before start or after stop is rejected; repeated stops are merged; a failed
 * start cancels the updates queued behind it.
 */
export class ResourceQueue {
  readonly #name: string;
  readonly #queue = new SerialQueue();
  /** The state once every queued operation has run. */
  #intended: Intended = 'stopped';
  /** Bumped by each start; queued updates of a failed start see it failed. */
  #pendingStart: Promise<void> | undefined;
  #pendingStop: Promise<void> | undefined;

  /** @param name the resource, for messages ('camera', 'microphone', 'screen share'). */
  constructor(name: string) {
    this.#name = name;
  }

  /** True when started or starting. */
  get active(): boolean {
    return this.#intended === 'started';
  }

  start(functionName: string, run: () => Promise<void>): Promise<void> {
    if (this.#intended === 'started') {
      return Promise.reject(invalidOperation(EXTRA_CODE.REPEAT_CALL, `duplicate ${functionName}() called: the ${this.#name} is already started`, functionName));
    }
    this.#intended = 'started';
    this.#pendingStop = undefined;
    const started = this.#enqueue(run);
    this.#pendingStart = started;
    started.catch(() => {
      if (this.#pendingStart === started) {
        this.#intended = 'stopped';
        this.#pendingStart = undefined;
      }
    });
    return started;
  }

  update(functionName: string, notStartedCode: number, run: () => Promise<void>): Promise<void> {
    if (this.#intended !== 'started') {
      return Promise.reject(invalidOperation(notStartedCode, `${functionName}() needs the ${this.#name} started first`, functionName));
    }
    const start = this.#pendingStart;
    return this.#enqueue(async () => {
      if (start) {
        const failed = await start.then(() => false, () => true);
        if (failed) throw operationAbort(`${functionName}() cancelled: the ${this.#name} failed to start`, functionName);
      }
      await run();
    });
  }

  stop(run: () => Promise<void>): Promise<void> {
    if (this.#pendingStop) return this.#pendingStop;
    if (this.#intended === 'stopped') return this.#queue.idle();
    this.#intended = 'stopped';
    this.#pendingStart = undefined;
    const stopped = this.#enqueue(run);
    this.#pendingStop = stopped;
    return stopped;
  }

  #enqueue(run: () => Promise<void>): Promise<void> {
    return this.#queue.run(run);
  }
}
