import { describe, expect, it } from 'vitest';
import { FREEZE_CAP_MS, FreezeMonitor, RENDER_FREEZE_FPS } from './freeze.js';

const clock = () => {
  let now = 0;
  return { now: () => now, advance: (ms: number) => { now += ms; } };
};

describe('freeze detection (docs/behaviour.md §4, §9)', () => {
  it('video freeze: starts when the remote track is muted, stops on unmute', () => {
    const c = clock();
    const m = new FreezeMonitor('u', 'main', c.now);
    m.trackMuted();
    c.advance(1200);
    expect(m.stats().videoFreeze).toEqual({ count: 1, durationMs: 1200, active: true });
    m.videoResumed();
    c.advance(1000);
    expect(m.stats().videoFreeze).toEqual({ count: 1, durationMs: 1200, active: false });
  });

  it('each freeze counts at most 5000 ms', () => {
    const c = clock();
    const m = new FreezeMonitor('u', 'main', c.now);
    m.trackMuted();
    c.advance(9000);
    m.videoResumed();
    m.trackMuted();
    c.advance(100);
    m.end();
    expect(FREEZE_CAP_MS).toBe(5000);
    expect(m.stats().videoFreeze).toEqual({ count: 2, durationMs: 5100, active: false });
  });

  it('render freeze: starts at 2 fps or less, ends above 2', () => {
    const c = clock();
    const m = new FreezeMonitor('u', 'sub', c.now);
    expect(RENDER_FREEZE_FPS).toBe(2);
    let frames = 0;
    const second = (fps: number) => { c.advance(1000); frames += fps; m.sample(frames); };
    m.sample(0);
    second(15);
    expect(m.stats().renderFreeze.active).toBe(false);
    second(2);
    expect(m.stats()).toMatchObject({ fps: 2, renderFreeze: { count: 1, active: true } });
    second(1);
    second(3);
    expect(m.stats().renderFreeze).toEqual({ count: 1, durationMs: 2000, active: false });
  });

  it('no render freeze is counted while the source is frozen (the remote muted)', () => {
    const c = clock();
    const m = new FreezeMonitor('u', 'main', c.now);
    m.sample(0);
    m.trackMuted();
    c.advance(1000);
    m.sample(0);
    expect(m.stats().renderFreeze.count).toBe(0);
    expect(m.stats().videoFreeze.active).toBe(true);
  });
});
