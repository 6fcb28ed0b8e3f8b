import { describe, expect, it } from 'vitest';
import { afterDownlinkSetUp, type LinkLike } from './link-order.js';

/** A peer connection's state and its connectionstatechange event, driven by the test. */
class FakeLink implements LinkLike {
  connectionState: RTCPeerConnectionState;
  private readonly _listeners = new Set<() => void>();
  constructor(state: RTCPeerConnectionState) {
    this.connectionState = state;
  }
  addEventListener(_type: 'connectionstatechange', listener: () => void): void {
    this._listeners.add(listener);
  }
  removeEventListener(_type: 'connectionstatechange', listener: () => void): void {
    this._listeners.delete(listener);
  }
  set(state: RTCPeerConnectionState): void {
    this.connectionState = state;
    for (const listener of [...this._listeners]) listener();
  }
  get listening(): number {
    return this._listeners.size;
  }
}

/** Settles `promise` and reports whether it had resolved within `ms`. */
const resolvedWithin = async (promise: Promise<void>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('the data link negotiates after the downlink (link-order)', () => {
  it('goes a task later when there is no downlink, or one not being set up', async () => {
    expect(await resolvedWithin(afterDownlinkSetUp(() => undefined), 50)).toBe(true);
    expect(await resolvedWithin(afterDownlinkSetUp(() => new FakeLink('connected')), 50)).toBe(true);
    expect(await resolvedWithin(afterDownlinkSetUp(() => new FakeLink('failed')), 50)).toBe(true);
  });

  it('reads the downlink a task later: one made by a subscription started within that task is waited for', async () => {
    let downlink: FakeLink | undefined;
    // A subscription made on the join's events, scheduled a task later before the data link opens (room.ts).
    setTimeout(() => { downlink = new FakeLink('new'); }, 0);
    const waiting = afterDownlinkSetUp(() => downlink);
    expect(await resolvedWithin(waiting, 60)).toBe(false);
    downlink?.set('connected');
    expect(await resolvedWithin(waiting, 50)).toBe(true);
    expect(downlink?.listening).toBe(0);
  });

  it('waits while the downlink connects, goes on connected, failed or closed', async () => {
    for (const end of ['connected', 'failed', 'closed'] as const) {
      const link = new FakeLink('connecting');
      const waiting = afterDownlinkSetUp(() => link);
      expect(await resolvedWithin(waiting, 40)).toBe(false);
      link.set('connecting');
      expect(await resolvedWithin(waiting, 20)).toBe(false);
      link.set(end);
      expect(await resolvedWithin(waiting, 50)).toBe(true);
    }
  });

  it('waits no longer than its bound for a downlink that never connects', async () => {
    const link = new FakeLink('new');
    const waiting = afterDownlinkSetUp(() => link, 80);
    expect(await resolvedWithin(waiting, 40)).toBe(false);
    expect(await resolvedWithin(waiting, 200)).toBe(true);
    expect(link.listening).toBe(0);
  });
});
