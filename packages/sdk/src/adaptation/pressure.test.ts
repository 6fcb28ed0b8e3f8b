import { describe, expect, it } from 'vitest';
import { PRESSURE_SAMPLE_MS, PressureMonitor, pressureEffect, type PressureState } from './pressure.js';

describe('pressureEffect', () => {
  it('serious and critical raise the downgrade floor without switching to small streams; nominal and fair change nothing', () => {
    expect(pressureEffect('nominal')).toEqual({ preferSmall: false, downgradeFloor: 0 });
    expect(pressureEffect('fair')).toEqual({ preferSmall: false, downgradeFloor: 0 });
    expect(pressureEffect('serious')).toEqual({ preferSmall: false, downgradeFloor: 1 });
    expect(pressureEffect('critical')).toEqual({ preferSmall: false, downgradeFloor: 2 });
  });

  it('prefers small streams under serious or critical pressure only when the app opted in', () => {
    expect(pressureEffect('serious', true)).toEqual({ preferSmall: true, downgradeFloor: 1 });
    expect(pressureEffect('critical', true)).toEqual({ preferSmall: true, downgradeFloor: 2 });
    expect(pressureEffect('fair', true)).toEqual({ preferSmall: false, downgradeFloor: 0 });
  });
});

describe('PressureMonitor', () => {
  it('observes cpu every 2 s and reports each change once; stop returns to nominal', async () => {
    let callback: ((records: { state: string }[]) => void) | undefined;
    const observed: unknown[] = [];
    class FakeObserver {
      constructor(cb: (records: { state: string }[]) => void) { callback = cb; }
      observe(source: string, options: unknown) { observed.push([source, options]); return Promise.resolve(); }
      disconnect() { callback = undefined; }
    }
    const changes: PressureState[] = [];
    const monitor = new PressureMonitor((state) => changes.push(state), FakeObserver);
    monitor.start();
    expect(observed).toEqual([['cpu', { sampleInterval: PRESSURE_SAMPLE_MS }]]);
    callback?.([{ state: 'serious' }]);
    callback?.([{ state: 'serious' }]);
    callback?.([{ state: 'bogus' }]);
    callback?.([{ state: 'critical' }]);
    expect(monitor.state).toBe('critical');
    monitor.stop();
    expect(changes).toEqual(['serious', 'critical', 'nominal']);
  });

  it('does nothing without the API', () => {
    const monitor = new PressureMonitor(() => { throw new Error('no change expected'); }, undefined);
    monitor.start();
    monitor.stop();
    expect(monitor.state).toBe('nominal');
  });
});
