import { describe, expect, it } from 'vitest';
import { parseControl } from './controlMessages';

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)).buffer;

describe('room-control messages', () => {
  it('reads a hand, an invitation and a request to mute', () => {
    expect(parseControl(bytes({ t: 'hand', up: true }))).toEqual({ t: 'hand', up: true });
    expect(parseControl(bytes({ t: 'invite', to: 'ada' }))).toEqual({ t: 'invite', to: 'ada' });
    expect(parseControl(bytes({ t: 'mute', to: 'ada', extra: 1 }))).toEqual({ t: 'mute', to: 'ada' });
  });

  it('ignores anything else: not JSON, other shapes, wrong field types', () => {
    for (const value of ['hello', 'null', '42', { t: 'hand' }, { t: 'hand', up: 'yes' }, { t: 'mute' }, { t: 'mute', to: 7 }, { t: 'kick', to: 'ada' }]) {
      expect(parseControl(bytes(value))).toBeNull();
    }
  });
});
