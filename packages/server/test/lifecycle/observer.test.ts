import { describe, expect, it } from 'vitest';
import { Observer } from '../../src/lifecycle/observer.js';

describe('Observer', () => {
  it('41 metrics through observers: every listener hears each event; one that throws stops neither the others nor the emitter, its error is handed on', () => {
    const failures: [unknown, string][] = [];
    const observer = new Observer<string>((error, event) => failures.push([error, event]));
    const heard: string[] = [];
    const stop = observer.on((event) => heard.push(`a:${event}`));
    observer.on(() => { throw new Error('a broken listener'); });
    observer.on((event) => heard.push(`c:${event}`));
    observer.emit('one');
    stop();
    observer.emit('two');
    expect(heard).toEqual(['a:one', 'c:one', 'c:two']);
    expect(failures.map(([error, event]) => `${(error as Error).message} on ${event}`)).toEqual(['a broken listener on one', 'a broken listener on two']);
  });

  it('without an error handler, a listener\'s throw reaches the emitter after every listener heard the event', () => {
    const observer = new Observer<number>();
    const heard: number[] = [];
    observer.on(() => { throw new Error('loud'); });
    observer.on((n) => heard.push(n));
    expect(() => observer.emit(1)).toThrow('loud');
    expect(heard).toEqual([1]);
  });
});
