import { describe, expect, it } from 'vitest';
import { RtcError } from '../errors/rtc-error.js';
import { CallRateLimiter } from './rate-limit.js';
import { ResourceQueue } from './resource-queue.js';
import { StateMachine } from './state-machine.js';

describe('StateMachine (docs/behaviour.md §4 room states)', () => {
  it('refuses an action whose origin is not allowed, and reports transitions', () => {
    const changes: string[] = [];
    const machine = new StateMachine<'initial' | 'joining' | 'joined' | 'left'>('initial', (from, to) => changes.push(`${from}>${to}`));
    machine.require(['initial', 'left'], 'enterRoom', 'duplicate join() called');
    machine.set('joining');
    expect(() => machine.require(['initial', 'left'], 'enterRoom', 'duplicate join() called', 5104)).toThrow(/duplicate join\(\) called/);
    machine.set('joined');
    machine.set('left');
    machine.require(['initial', 'left'], 'enterRoom', 'x');
    expect(changes).toEqual(['initial>joining', 'joining>joined', 'joined>left']);
  });
});

const deferred = () => {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
};

describe('ResourceQueue (docs/behaviour.md §4 per-resource serialisation)', () => {
  it('rejects a duplicate start', async () => {
    const queue = new ResourceQueue('camera');
    const gate = deferred();
    const first = queue.start('startLocalVideo', () => gate.promise);
    await expect(queue.start('startLocalVideo', async () => undefined)).rejects.toMatchObject({ code: 5100, extraCode: 5104 });
    gate.resolve();
    await first;
    await expect(queue.start('startLocalVideo', async () => undefined)).rejects.toBeInstanceOf(RtcError);
  });

  it('rejects an update before start and after stop', async () => {
    const queue = new ResourceQueue('camera');
    await expect(queue.update('updateLocalVideo', 5105, async () => undefined)).rejects.toMatchObject({ extraCode: 5105 });
    await queue.start('startLocalVideo', async () => undefined);
    await queue.update('updateLocalVideo', 5105, async () => undefined);
    await queue.stop(async () => undefined);
    await expect(queue.update('updateLocalVideo', 5105, async () => undefined)).rejects.toMatchObject({ extraCode: 5105 });
  });

  it('runs start, update and stop in call order', async () => {
    const queue = new ResourceQueue('camera');
    const order: string[] = [];
    const gate = deferred();
    const start = queue.start('s', async () => { await gate.promise; order.push('start'); });
    const update = queue.update('u', 1, async () => { order.push('update'); });
    const stop = queue.stop(async () => { order.push('stop'); });
    gate.resolve();
    await Promise.all([start, update, stop]);
    expect(order).toEqual(['start', 'update', 'stop']);
  });

  it('merges repeated stops', async () => {
    const queue = new ResourceQueue('camera');
    await queue.start('s', async () => undefined);
    let stops = 0;
    const gate = deferred();
    const a = queue.stop(async () => { stops++; await gate.promise; });
    const b = queue.stop(async () => { stops++; });
    expect(b).toBe(a);
    gate.resolve();
    await Promise.all([a, b]);
    await queue.stop(async () => { stops++; });
    expect(stops).toBe(1);
  });

  it('cancels updates queued behind a failed start', async () => {
    const queue = new ResourceQueue('camera');
    const gate = deferred();
    const start = queue.start('startLocalVideo', () => gate.promise);
    let ran = false;
    const update = queue.update('updateLocalVideo', 5105, async () => { ran = true; });
    gate.reject(new Error('no camera'));
    await expect(start).rejects.toThrow('no camera');
    await expect(update).rejects.toMatchObject({ code: 5998 });
    expect(ran).toBe(false);
    // The resource is stopped again, so a new start is allowed.
    await queue.start('startLocalVideo', async () => undefined);
  });
});

describe('CallRateLimiter (docs/behaviour.md §5 call frequency limit)', () => {
  it("allows N calls per second per function, then 'call frequency limit exceeded'", () => {
    let now = 0;
    const limiter = new CallRateLimiter(3, () => now);
    limiter.check('a');
    limiter.check('a');
    limiter.check('a');
    limiter.check('b');
    expect(() => limiter.check('a')).toThrow(/call frequency limit exceeded/);
    now = 1000;
    expect(() => limiter.check('a')).not.toThrow();
  });
});
