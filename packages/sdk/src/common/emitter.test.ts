import { describe, expect, it } from 'vitest';
import { Emitter } from './emitter.js';

interface Events {
  ping: (n: number) => void;
}

describe('Emitter', () => {
  it('calls listeners in order with their context, and off removes them', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    const ctx = { name: 'ctx' };
    function withContext(this: { name: string }, n: number) { seen.push(`${this.name}:${n}`); }
    const plain = (n: number) => seen.push(`plain:${n}`);
    emitter.on('ping', withContext, ctx);
    emitter.on('ping', plain);
    emitter.emit('ping', 1);
    emitter.off('ping', plain);
    emitter.emit('ping', 2);
    emitter.off('*');
    emitter.emit('ping', 3);
    expect(seen).toEqual(['ctx:1', 'plain:1', 'ctx:2']);
  });

  it("survives a listener that throws and still calls the others", () => {
    const emitter = new Emitter<Events>();
    const errors: unknown[] = [];
    emitter.onListenerError = (error) => errors.push(error);
    const seen: number[] = [];
    emitter.on('ping', () => { throw new Error('app bug'); });
    emitter.on('ping', (n) => seen.push(n));
    expect(() => emitter.emit('ping', 5)).not.toThrow();
    expect(seen).toEqual([5]);
    expect(errors).toHaveLength(1);
  });
});
