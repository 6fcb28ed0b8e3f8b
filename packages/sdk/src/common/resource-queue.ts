import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, operationAbort } from '../errors/catalogue.js';

type Intended = 'stopped' | 'started';

/** Runs async operations one after another, in call order; a failure does not stop the ones behind it. */
export class SerialQueue {
  private _tail: Promise<unknown> = Promise.resolve();

  /** Queues `run`; resolves or rejects with its outcome. */
  run<T>(run: () => Promise<T>): Promise<T> {
    const next = this._tail.then(run, run);
    this._tail = next.catch(() => undefined); // only orders the next run: the caller gets `next`
    return next;
  }

  /** Resolves once everything queued so far has run. */
  idle(): Promise<void> {
    return this._tail.then(() => undefined, () => undefined); // idle, not success: a failure went to its own caller
  }
}

/**
 * Serialises start / update / stop of one local resource (docs/behaviour.md §4): a repeated start is rejected as
 * a duplicate; an update before start or after stop is rejected; repeated stops are merged; a failed
 * start cancels the updates queued behind it.
 */
export class ResourceQueue {
  private readonly _name: string;
  private readonly _queue = new SerialQueue();
  /** The state once every queued operation has run. */
  private _intended: Intended = 'stopped';
  /** Bumped by each start; queued updates of a failed start see it failed. */
  private _pendingStart: Promise<void> | undefined;
  private _pendingStop: Promise<void> | undefined;

  /** @param name the resource, for messages ('camera', 'microphone', 'screen share'). */
  constructor(name: string) {
    this._name = name;
  }

  /** True when started or starting. */
  get active(): boolean {
    return this._intended === 'started';
  }

  start(functionName: string, run: () => Promise<void>): Promise<void> {
    if (this._intended === 'started') {
      return Promise.reject(invalidOperation(EXTRA_CODE.REPEAT_CALL, `duplicate ${functionName}() called: the ${this._name} is already started`, functionName));
    }
    this._intended = 'started';
    this._pendingStop = undefined;
    const started = this._enqueue(run);
    this._pendingStart = started;
    started.catch(() => { // the caller gets `started`; this only forgets the intent
      if (this._pendingStart === started) {
        this._intended = 'stopped';
        this._pendingStart = undefined;
      }
    });
    return started;
  }

  update(functionName: string, notStartedCode: number, run: () => Promise<void>): Promise<void> {
    if (this._intended !== 'started') {
      return Promise.reject(invalidOperation(notStartedCode, `${functionName}() needs the ${this._name} started first`, functionName));
    }
    const start = this._pendingStart;
    return this._enqueue(async () => {
      if (start) {
        const failed = await start.then(() => false, () => true); // the start's failure went to its caller; told here as the cancel below
        if (failed) throw operationAbort(`${functionName}() cancelled: the ${this._name} failed to start`, functionName);
      }
      await run();
    });
  }

  stop(run: () => Promise<void>): Promise<void> {
    if (this._pendingStop) return this._pendingStop;
    if (this._intended === 'stopped') return this._queue.idle();
    this._intended = 'stopped';
    this._pendingStart = undefined;
    const stopped = this._enqueue(run);
    this._pendingStop = stopped;
    return stopped;
  }

  private _enqueue(run: () => Promise<void>): Promise<void> {
    return this._queue.run(run);
  }
}
