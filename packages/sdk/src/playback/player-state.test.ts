import { describe, expect, it } from 'vitest';
import { PAUSED_RETRIES, PlayerStateMachine, ResumeBudget, type PlayerState, type PlayReason } from './player-state.js';

describe('player states (docs/behaviour.md §4): STOPPED, PLAYING, PAUSED', () => {
  const record = () => {
    const changes: [PlayerState, PlayReason][] = [];
    return { changes, machine: new PlayerStateMachine((state, reason) => changes.push([state, reason])) };
  };

  it('starts STOPPED; PLAYING from any state; PAUSED only from PLAYING; STOPPED from any', () => {
    const { changes, machine } = record();
    expect(machine.state).toBe('STOPPED');
    machine.paused('pause');
    expect(machine.state).toBe('STOPPED');
    machine.playing('playing');
    machine.paused('mute');
    machine.playing('unmute');
    machine.stopped('ended');
    expect(changes).toEqual([['PLAYING', 'playing'], ['PAUSED', 'mute'], ['PLAYING', 'unmute'], ['STOPPED', 'ended']]);
  });

  it('announces a state once, not again for the same state', () => {
    const { changes, machine } = record();
    machine.playing('playing');
    machine.playing('unmute');
    machine.stopped('ended');
    machine.stopped('ended');
    expect(changes).toEqual([['PLAYING', 'playing'], ['STOPPED', 'ended']]);
  });
});

describe('auto-resume of a paused player: 5 retries (docs/behaviour.md §4, §9)', () => {
  it('gives 5 tries, then none until reset (the view was recreated)', () => {
    const budget = new ResumeBudget();
    expect(PAUSED_RETRIES).toBe(5);
    const taken = Array.from({ length: 7 }, () => budget.take());
    expect(taken).toEqual([true, true, true, true, true, false, false]);
    budget.reset();
    expect(budget.take()).toBe(true);
    expect(budget.left).toBe(4);
  });
});
