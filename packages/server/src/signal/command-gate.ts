import { SERVER_CODE, type Command } from '@conclave/protocol';
import { CommandError } from './command-error.js';

/**
 * Commands that run at once whatever else the connection has running: cheap ones, and those a running command
 * may be waiting for (a subscribe waits for the client's `downlink-answer`; a publish is cancelled by an
 * `unpublish`, by `downlink-reset` or a `leave`).
 */
const IMMEDIATE: ReadonlySet<Command> = new Set<Command>(['heartbeat', 'leave', 'mute-flag', 'unpublish', 'downlink-answer', 'downlink-reset']);

/** Commands that negotiate one of the session's own peer connections: one at a time per lane, in order. */
const LANES: Partial<Record<Command, string>> = { publish: 'uplink', 'data-link': 'data-link' };

/**
 * Commands that cancel the waiting commands of a lane: an `unpublish` undoes the publishes sent before it, the
 * running one (media-commands.ts refuses it once negotiated) and those still waiting (refused here, unrun).
 */
const CANCELS: Partial<Record<Command, { lane: string; code: number; message: string }>> = {
  unpublish: { lane: 'uplink', code: SERVER_CODE.MEDIA_ERROR, message: 'publish cancelled: an unpublish came while it waited' },
};

/** Commands that may wait for a turn; past this many, a command is refused (the SDK never has nearly so many). */
const MAX_WAITING = 256;

interface Lane {
  /** Ends when the lane's last command ends (undefined when none runs or waits). */
  tail: Promise<void> | undefined;
  /** Bumped by a cancelling command: a waiting command that sees another value is refused. */
  generation: number;
  cancelled?: CommandError;
}

/**
 * The per-connection order of commands (docs/behaviour.md §7.2): at most `limit` run at once (the SDK pipelines
 * subscriptions: the rest wait their turn, in order), publishes run one after the other and so do data-link
 * negotiations, and IMMEDIATE commands never wait. So one connection cannot have the node negotiate dozens of
 * peer connections for it at the same time, and heartbeats stay answered while it negotiates. A command whose
 * turn is now starts synchronously, as it did before there was a gate: commands that arrive together keep their
 * order.
 */
export class CommandGate {
  readonly #limit: number;
  #running = 0;
  /** Commands admitted and not yet finished (running or waiting). */
  #admitted = 0;
  readonly #waiters: (() => void)[] = [];
  readonly #lanes = new Map<string, Lane>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Runs `task`, the handler of `cmd`, when its turn comes; refuses it (RATE_LIMITED) when too many wait. */
  run<T>(cmd: Command, task: () => Promise<T>): Promise<T> {
    const cancels = CANCELS[cmd];
    if (cancels) {
      const lane = this.#lane(cancels.lane);
      lane.generation++;
      lane.cancelled = new CommandError(cancels.code, cancels.message);
    }
    if (IMMEDIATE.has(cmd)) return task();
    if (this.#admitted >= this.#limit + MAX_WAITING) {
      return Promise.reject(new CommandError(SERVER_CODE.RATE_LIMITED, `too many commands in progress on this connection (${this.#limit} run at once)`));
    }
    this.#admitted++;
    const laneName = LANES[cmd];
    const lane = laneName === undefined ? undefined : this.#lane(laneName);
    const before = lane?.tail;
    const generation = lane?.generation;
    let finished!: () => void;
    const done = new Promise<void>((resolve) => { finished = resolve; });
    if (lane) lane.tail = done;
    const leave = () => {
      this.#admitted--;
      finished();
      if (lane?.tail === done) lane.tail = undefined;
    };
    if (before === undefined && this.#running < this.#limit) {
      this.#running++;
      return this.#execute(task, leave);
    }
    return (async () => {
      await before;
      await this.#slot();
      if (lane && lane.generation !== generation && lane.cancelled) {
        this.#free();
        leave();
        throw lane.cancelled;
      }
      return this.#execute(task, leave);
    })();
  }

  /** Runs a task that holds a slot; frees the slot and leaves when it ends. */
  async #execute<T>(task: () => Promise<T>, leave: () => void): Promise<T> {
    try {
      return await task();
    } finally {
      this.#free();
      leave();
    }
  }

  #lane(name: string): Lane {
    let lane = this.#lanes.get(name);
    if (!lane) {
      lane = { tail: undefined, generation: 0 };
      this.#lanes.set(name, lane);
    }
    return lane;
  }

  #free(): void {
    this.#running--;
    this.#waiters.shift()?.();
  }

  #slot(): Promise<void> {
    if (this.#running < this.#limit) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(() => {
      this.#running++;
      resolve();
    }));
  }
}
