import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferTurnTcp, RELAY_CHECK_INTERVAL_MS, RELAY_SWITCH_TIMEOUT_MS, RelayRttRule, RelaySwitch, type RelaySwitchHost } from './relay-switch.js';
import { MediaRttMeter, selectedPair } from './media-rtt.js';

const thresholds = { rttRatioThreshold: 3, rttThreshold: 400 };

describe('RelayRttRule (docs/behaviour.md §4)', () => {
  it('triggers on the 5th slow check in a row, not before', () => {
    const rule = new RelayRttRule(thresholds);
    for (let i = 0; i < 4; i++) expect(rule.check(500, 20)).toBe(false);
    expect(rule.check(500, 20)).toBe(true);
  });

  it('needs both the ratio and the time threshold; a fast check breaks the series, an unknown one is skipped', () => {
    const rule = new RelayRttRule(thresholds);
    for (let i = 0; i < 10; i++) expect(rule.check(350, 10)).toBe(false); // below 400 ms
    for (let i = 0; i < 10; i++) expect(rule.check(900, 400)).toBe(false); // only 2.25× signalling
    for (let i = 0; i < 4; i++) rule.check(500, 20);
    expect(rule.check(100, 20)).toBe(false);
    for (let i = 0; i < 4; i++) expect(rule.check(500, 20)).toBe(false);
    expect(rule.check(undefined, 20)).toBe(false);
    expect(rule.check(500, 20)).toBe(true);
  });
});

describe('preferTurnTcp', () => {
  it('keeps the TCP and TLS TURN URLs when there are any, else everything', () => {
    const servers = [{ urls: ['turn:a:3478?transport=udp', 'turn:a:3478?transport=tcp'], username: 'u', credential: 'c' }, { urls: 'turns:b:5349' }];
    expect(preferTurnTcp(servers)).toEqual([{ urls: ['turn:a:3478?transport=tcp'], username: 'u', credential: 'c' }, { urls: ['turns:b:5349'] }]);
    const udpOnly = [{ urls: 'turn:a:3478?transport=udp' }];
    expect(preferTurnTcp(udpOnly)).toEqual(udpOnly);
  });
});

describe('selectedPair', () => {
  it("takes the transport's selected pair, else the nominated succeeded one", () => {
    const pairs = [{ type: 'candidate-pair', id: 'p1', nominated: true, state: 'succeeded', currentRoundTripTime: 0.1 }, { type: 'candidate-pair', id: 'p2', currentRoundTripTime: 0.5 }];
    expect(selectedPair([...pairs, { type: 'transport', id: 't', selectedCandidatePairId: 'p2' }])?.id).toBe('p2');
    expect(selectedPair(pairs)?.id).toBe('p1');
  });
});

describe('MediaRttMeter', () => {
  it('gives the mean round trip of the answers since the previous read of the same pair', () => {
    const meter = new MediaRttMeter();
    const pc = {} as RTCPeerConnection;
    const pair = (id: string, total: number, responses: number) => ({ type: 'candidate-pair', id, totalRoundTripTime: total, responsesReceived: responses });
    expect(meter.update(pc, pair('p', 1, 10))).toBeUndefined();
    expect(meter.update(pc, pair('p', 2.2, 13))).toBeCloseTo(400);
    expect(meter.update(pc, pair('p', 2.2, 13))).toBeUndefined(); // no new answer
    expect(meter.update(pc, pair('q', 3, 20))).toBeUndefined(); // another pair: starts afresh
    expect(meter.update(pc, pair('q', 3.1, 21))).toBeCloseTo(100);
  });
});

describe('RelaySwitch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function host(media: number, linkState: RTCPeerConnectionState = 'connected') {
    const rebuilds: number[] = [];
    const h: RelaySwitchHost & { rebuilds: number[]; media: number } = {
      media,
      rebuilds,
      thresholds: () => thresholds,
      hasTurn: () => true,
      relayImposed: () => false,
      mediaRttMs: async () => h.media,
      signalRttMs: () => 10,
      links: () => [{ connectionState: linkState } as RTCPeerConnection],
      rebuild: () => rebuilds.push(Date.now()),
    };
    return h;
  }

  const tick = async (checks: number) => {
    for (let i = 0; i < checks; i++) await vi.advanceTimersByTimeAsync(RELAY_CHECK_INTERVAL_MS);
  };

  it('switches to relay after 5 slow checks, once; a link failure then switches back and it is not tried again', async () => {
    const h = host(600);
    const relay = new RelaySwitch(h);
    relay.start();
    await tick(4);
    expect(relay.relayForced).toBe(false);
    await tick(1);
    expect(relay.state).toBe('relay');
    expect(h.rebuilds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(RELAY_SWITCH_TIMEOUT_MS); // connected: stays on relay
    expect(relay.state).toBe('relay');
    expect(relay.linkFailed()).toBe(true);
    expect(relay.state).toBe('fallback');
    expect(h.rebuilds).toHaveLength(2);
    await tick(20);
    expect(h.rebuilds).toHaveLength(2);
    expect(relay.linkFailed()).toBe(false);
    relay.stop();
  });

  it('switches back when the links are not connected 10 s after the switch', async () => {
    const h = host(600, 'connecting');
    const relay = new RelaySwitch(h);
    relay.start();
    await tick(5);
    expect(relay.state).toBe('relay');
    await vi.advanceTimersByTimeAsync(RELAY_SWITCH_TIMEOUT_MS);
    expect(relay.state).toBe('fallback');
    expect(h.rebuilds).toHaveLength(2);
    relay.stop();
  });

  it('does nothing without thresholds, without TURN, or when relay is already imposed', async () => {
    for (const change of [{ thresholds: () => undefined }, { hasTurn: () => false }, { relayImposed: () => true }]) {
      const h = { ...host(600), ...change };
      const relay = new RelaySwitch(h);
      relay.start();
      await tick(10);
      expect(relay.state).toBe('direct');
      relay.stop();
    }
  });
});
