/** Runs an SDK call that may be sync or async, or throw; never rejects. */
export async function settle(call: () => unknown, what: string): Promise<void> {
  try {
    await call();
  } catch (error) {
    console.warn(`[conclave-demo] ${what} failed`, error);
  }
}

/**
 * Media calls for one target (camera, mic, each remote user's video) run one after another: each task
 * compares what is wanted with what is running when its turn comes, so fast toggles collapse into the
 * needed calls only. Targets do not wait for each other.
 */
export class TaskQueues {
  private readonly queues = new Map<string, Promise<void>>();

  /** Runs `task` after the tasks already queued for `key`; a failure is logged, never thrown. */
  enqueue(key: string, task: () => Promise<void>): void {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(task).catch((error: unknown) => {
      console.error(`[conclave-demo] ${key}`, error);
    });
    this.queues.set(key, next);
    void next.then(() => {
      if (this.queues.get(key) === next) this.queues.delete(key);
    });
  }

  /** Resolves once every queued task has run, or after `ms` (whichever comes first). */
  async drain(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([...this.queues.values()]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }
}
