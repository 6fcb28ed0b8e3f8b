import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferTurnTcp, RELAY_CHECK_INTERVAL_MS, RELAY_MEMORY_MS, RELAY_SWITCH_TIMEOUT_MS, RelayRttRule, RelaySwitch, relayMemory, type RelaySwitchHost } from './relay-switch.js';
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

describe('RelayRttRule: the loss rule (docs/behaviour.md §4.9)', () => {
  it('40 media loss above the share for lossCount checks switches, only while signalling stays under 100 ms', () => {
    const rule = new RelayRttRule({ ...thresholds, loss: 20, lossCount: 3 });
    expect(rule.check(undefined, 10, 30)).toBe(false);
    expect(rule.check(undefined, 10, 10)).toBe(false); // at or under the share: the series restarts
    expect(rule.check(undefined, 10, 30)).toBe(false);
    expect(rule.check(undefined, 10, undefined)).toBe(false); // no statistics: skipped
    expect(rule.check(undefined, 10, 30)).toBe(false);
    expect(rule.check(undefined, 10, 30)).toBe(true);
    const slowSignal = new RelayRttRule({ ...thresholds, loss: 20, lossCount: 3 });
    for (let i = 0; i < 10; i++) expect(slowSignal.check(undefined, 150, 50)).toBe(false); // signalling suffers too: not the UDP path's
    const noLossRule = new RelayRttRule(thresholds);
    for (let i = 0; i < 10; i++) expect(noLossRule.check(undefined, 10, 90)).toBe(false);
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
    const h: RelaySwitchHost & { rebuilds: number[]; media: number; loss?: number } = {
      media,
      rebuilds,
      thresholds: () => thresholds,
      hasTurn: () => true,
      relayImposed: () => false,
      mediaRttMs: async () => h.media,
      signalRttMs: () => 10,
      lossPct: () => h.loss,
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

  it('40 a switch whose relay connects is remembered for the client address for 7 days; the next join starts on relay; a failed relay forgets it', async () => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
    try {
      const h = host(10);
      h.loss = 50;
      h.thresholds = () => ({ ...thresholds, loss: 20, lossCount: 3 });
      const first = new RelaySwitch(h);
      first.joined('203.0.113.7');
      expect(first.state).toBe('direct'); // nothing remembered yet
      first.start();
      await tick(3);
      expect(first.state).toBe('relay');
      expect(relayMemory.has('203.0.113.7')).toBe(false); // not before the relay is seen to connect
      await vi.advanceTimersByTimeAsync(RELAY_SWITCH_TIMEOUT_MS);
      expect(relayMemory.has('203.0.113.7')).toBe(true);
      expect(relayMemory.has('198.51.100.1')).toBe(false);
      first.stop();

      const next = { ...host(10), thresholds: h.thresholds };
      const second = new RelaySwitch(next);
      second.joined('203.0.113.7');
      expect(second.relayForced).toBe(true);
      expect(next.rebuilds).toHaveLength(0); // the links are built after the join, already on relay
      expect(second.linkFailed()).toBe(true);
      expect(relayMemory.has('203.0.113.7')).toBe(false);

      relayMemory.set('203.0.113.7', true);
      vi.advanceTimersByTime(RELAY_MEMORY_MS + 1);
      expect(relayMemory.has('203.0.113.7')).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
