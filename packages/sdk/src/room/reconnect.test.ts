import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVER_CODE } from '@conclave/protocol';
import { Emitter } from '../common/emitter.js';
import type { EnterRoomConfig, TRTCEventTypes } from '../types.js';
import { FibonacciReconnectPolicy, type ReconnectContext, type ReconnectPolicy } from './reconnector.js';
import { Room } from './room.js';

/**
 * The reconnection loop of docs/behaviour.md §4 against a scripted signalling server: a fake WebSocket (the only
 * part faked; there is no real server in a unit test) whose connections the test can drop and refuse,
 * under fake timers so 30 attempts of Fibonacci back-off take no real time.
 */
class FakeSocket extends EventTarget {
  static OPEN = 1;
  static CLOSED = 3;
  static refuse = false;
  static live = new Set<FakeSocket>();
  static joins = 0;
  static probes = 0;
  /** How many joins to answer JOIN_THROTTLED (retry after 800 ms with a ticket) before admitting. */
  static throttle = 0;
  /** Every request received, in order. */
  static sent: { cmd: string; data: Record<string, unknown> }[] = [];
  readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;

  constructor(readonly url: string) {
    super();
    setTimeout(() => {
      if (FakeSocket.refuse) {
        this.readyState = 3;
        this.onerror?.();
        this.onclose?.({ code: 1006, reason: '' });
        return;
      }
      this.readyState = 1;
      FakeSocket.live.add(this);
      this.onopen?.();
    }, 0);
  }

  send(text: string): void {
    const { id, cmd, data: sent } = JSON.parse(text) as { id: number; cmd: string; data: Record<string, unknown> };
    FakeSocket.sent.push({ cmd, data: sent });
    if (cmd === 'join') FakeSocket.joins++;
    if (cmd === 'join' && FakeSocket.throttle > 0) {
      FakeSocket.throttle--;
      const busy = { id, code: SERVER_CODE.JOIN_THROTTLED, message: 'server busy', data: { retryAfterMs: 800, ticket: `t${FakeSocket.joins}` } };
      setTimeout(() => this.onmessage?.({ data: JSON.stringify(busy) }), 0);
      return;
    }
    const data = cmd === 'join' ? { tinyId: '1', sessionToken: 't', resumed: false, userList: [], iceServers: [] } : {};
    // data-link is never answered here: custom messages are not part of this test.
    if (cmd === 'data-link') return;
    setTimeout(() => this.onmessage?.({ data: JSON.stringify({ id, code: 0, message: 'ok', data }) }), 0);
  }

  close(): void {
    this.drop();
  }

  /** The connection dies (as when the server goes away). */
  drop(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    FakeSocket.live.delete(this);
    this.onclose?.({ code: 1006, reason: 'gone' });
  }
}

/** Just enough of RTCPeerConnection for the data link the room opens after joining. */
class FakePeerConnection extends EventTarget {
  connectionState = 'new';
  iceGatheringState = 'complete';
  localDescription: { sdp: string } | null = null;
  createDataChannel() { return new EventTarget(); }
  async createOffer() { return { type: 'offer', sdp: 'v=0' }; }
  async setLocalDescription(d: { sdp: string }) { this.localDescription = d; }
  async setRemoteDescription() { /* nothing */ }
  close() { this.connectionState = 'closed'; }
}

const schedule = {
  code: 0, msg: 'ok',
  data: { domains: { main: 'ws://server/signal', backup: 'ws://server/signal' }, iceServers: [], iceTransportPolicy: 'all', trtcAutoConf: { enable2k4k: false }, config: { scheduleCache: false } },
};

describe('signalling reconnection (docs/behaviour.md §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    // Scheduling, and the probes of the server's health route: unanswered while the server refuses connections.
    vi.stubGlobal('fetch', async (url: string) => {
      if (!String(url).includes('/healthz')) return new Response(JSON.stringify(schedule));
      FakeSocket.probes++;
      if (FakeSocket.refuse) throw new TypeError('Failed to fetch');
      return new Response('{}');
    });
    FakeSocket.refuse = false;
    FakeSocket.live.clear();
    FakeSocket.joins = 0;
    FakeSocket.sent = [];
    FakeSocket.probes = 0;
    FakeSocket.throttle = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function joined(policy?: ReconnectPolicy, config: Partial<EnterRoomConfig> = {}, settleMs = 10) {
    const events = new Emitter<TRTCEventTypes>();
    const states: string[] = [];
    const flags: (boolean | undefined)[] = [];
    const errors: string[] = [];
    events.on('connection-state-changed', ({ state, isReconnecting }) => {
      states.push(state);
      flags.push(isReconnecting);
    });
    events.on('error', (error) => errors.push(error.message));
    const room = new Room(events, policy);
    const joining = room.join({ sdkAppId: 1, userId: 'u', userSig: 's', roomId: 1, ...config }, { roomId: '1', isString: false });
    await vi.advanceTimersByTimeAsync(settleMs);
    await joining;
    return { room, states, flags, errors };
  }

  it("comes back after a drop as the original announces it: DISCONNECTED, CONNECTING with isReconnecting, CONNECTED", async () => {
    const { room, states, flags } = await joined();
    for (const socket of [...FakeSocket.live]) socket.drop();
    expect(states.at(-1)).toBe('DISCONNECTED');
    await vi.advanceTimersByTimeAsync(1000 + 50); // first attempt after 1 s
    expect(states).toEqual(['CONNECTING', 'CONNECTED', 'DISCONNECTED', 'CONNECTING', 'CONNECTED']);
    // isReconnecting (5.13+): false on the join's CONNECTING, true on the reconnection's.
    expect(flags).toEqual([false, undefined, undefined, true, undefined]);
    expect(room.state).toBe('joined');
    expect(FakeSocket.joins).toBe(2);
  });

  it('a failed attempt goes back to DISCONNECTED; each attempt is a CONNECTING with isReconnecting', async () => {
    const { states, flags } = await joined();
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    await vi.advanceTimersByTimeAsync(2_500); // attempts at 1 and 2 s fail
    FakeSocket.refuse = false;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(states.join(' ')).toMatch(/^CONNECTING CONNECTED DISCONNECTED( CONNECTING DISCONNECTED){2,} CONNECTING CONNECTED$/);
    expect(flags.filter((_, i) => i > 0 && states[i] === 'CONNECTING').every((flag) => flag === true)).toBe(true);
  });

  it("create({ enableReconnectingState }) keeps the seed's announcement: RECONNECTING, then CONNECTED", async () => {
    const events = new Emitter<TRTCEventTypes>();
    const seen: [string, boolean | undefined][] = [];
    events.on('connection-state-changed', ({ state, isReconnecting }) => seen.push([state, isReconnecting]));
    const room = new Room(events);
    room.connection.reconnectingState = true;
    const joining = room.join({ sdkAppId: 1, userId: 'u', userSig: 's', roomId: 1 }, { roomId: '1', isString: false });
    await vi.advanceTimersByTimeAsync(10);
    await joining;
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    await vi.advanceTimersByTimeAsync(2_500); // failed attempts announce nothing
    FakeSocket.refuse = false;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(seen).toEqual([['CONNECTING', false], ['CONNECTED', undefined], ['RECONNECTING', true], ['CONNECTED', undefined]]);
  });

  it('gives up after 30 attempts with Fibonacci back-off: DISCONNECTED and SPEC\'s error', async () => {
    const { room, states, errors } = await joined();
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    // 1+1+2+3+5+8+13+21 s, then 30 s for each of the 22 remaining attempts.
    const total = (1 + 1 + 2 + 3 + 5 + 8 + 13 + 21 + 22 * 30) * 1000;
    await vi.advanceTimersByTimeAsync(total - 2000);
    expect(room.state).toBe('joined');
    await vi.advanceTimersByTimeAsync(4000);
    expect(states.at(-1)).toBe('DISCONNECTED');
    expect(errors).toEqual([expect.stringContaining('signal channel reconnection failed, check your network')]);
    expect(room.state).toBe('left');
  });

  it('stops reconnecting when the app leaves meanwhile', async () => {
    const { room, states } = await joined();
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    await vi.advanceTimersByTimeAsync(5000);
    await room.leave();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(states.at(-1)).toBe('DISCONNECTED');
    expect(room.state).toBe('left');
  });

  it('the default policy is docs/behaviour.md §4\'s: Fibonacci seconds capped at 30 s, null after 30 attempts', () => {
    const policy = new FibonacciReconnectPolicy();
    const delays = Array.from({ length: 31 }, (_, retryCount) => policy.nextRetryDelayInMs({ retryCount, elapsedMs: 0 }));
    expect(delays.slice(0, 10)).toEqual([1000, 1000, 2000, 3000, 5000, 8000, 13000, 21000, 30000, 30000]);
    expect(delays[29]).toBe(30_000);
    expect(delays[30]).toBeNull();
  });

  it('a pluggable policy decides the delays and when to give up', async () => {
    const asked: ReconnectContext[] = [];
    const policy: ReconnectPolicy = {
      nextRetryDelayInMs: (context) => {
        asked.push(context);
        return context.retryCount < 2 ? 500 : null;
      },
    };
    const { room, states, errors } = await joined(policy);
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    await vi.advanceTimersByTimeAsync(499);
    expect(asked.map((c) => c.retryCount)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(600); // attempt 1 fails, the second waits 500 ms
    await vi.advanceTimersByTimeAsync(600); // attempt 2 fails: the policy says stop
    expect(asked.map((c) => c.retryCount)).toEqual([0, 1, 2]);
    expect(asked[1]!.lastError).toBeInstanceOf(Error);
    expect(states.at(-1)).toBe('DISCONNECTED');
    expect(errors).toEqual([expect.stringContaining('signal channel reconnection failed')]);
    expect(room.state).toBe('left');
  });

  it('nothing accepted and dropped: switchRole sends latencyLevel, join sends userDefineRecordId', async () => {
    const { room } = await joined(undefined, { scene: 'live', role: 'audience', userDefineRecordId: 'rec_1' });
    expect(FakeSocket.sent.find((r) => r.cmd === 'join')?.data).toMatchObject({ userDefineRecordId: 'rec_1', trtcRole: 21 });
    const switching = room.switchRole('anchor', { latencyLevel: 3, privateMapKey: 'pmk' });
    await vi.advanceTimersByTimeAsync(10);
    await switching;
    expect(FakeSocket.sent.find((r) => r.cmd === 'switch-role')?.data).toEqual({ role: 20, privateMapKey: 'pmk', latencyLevel: 3 });
  });

  it('while waiting out a back-off step it probes the server and reconnects within a second of it answering again', async () => {
    const { room, states } = await joined();
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    // Attempts at 1, 2, 4, 7, 12 s fail; the next step would wait until 20 s.
    await vi.advanceTimersByTimeAsync(13_000);
    const probesWhileDown = FakeSocket.probes;
    expect(probesWhileDown).toBeGreaterThanOrEqual(10);
    FakeSocket.refuse = false;
    const backAt = Date.now();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(states.at(-1)).toBe('CONNECTED');
    expect(room.state).toBe('joined');
    expect(Date.now() - backAt).toBeLessThan(20_000 - 13_000);
    // Probing stops once connected.
    const probes = FakeSocket.probes;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.probes).toBe(probes);
  });

  it('the browser going online ends the wait at once (within 500 ms)', async () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const { states } = await joined();
    FakeSocket.refuse = true;
    for (const socket of [...FakeSocket.live]) socket.drop();
    await vi.advanceTimersByTimeAsync(12_500);
    // The server is back but its health route is not reachable: only the online event can end the wait early.
    FakeSocket.refuse = false;
    vi.stubGlobal('fetch', async (url: string) => {
      if (String(url).includes('/healthz')) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(schedule));
    });
    page.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(520);
    expect(states.at(-1)).toBe('CONNECTED');
  });

  it('a join the server throttles waits as told and is sent again with its ticket: not a failure', async () => {
    FakeSocket.throttle = 2;
    const { room } = await joined(undefined, {}, 2_000);
    const joins = FakeSocket.sent.filter((r) => r.cmd === 'join').map((r) => r.data.admissionTicket);
    expect(joins).toEqual([undefined, 't1', 't2']);
    expect(room.state).toBe('joined');
  });

  it('a throttled join still fails once the join time-out has passed', async () => {
    FakeSocket.throttle = 1000;
    const events = new Emitter<TRTCEventTypes>();
    const room = new Room(events);
    const joining = room.join({ sdkAppId: 1, userId: 'u', userSig: 's', roomId: 1 }, { roomId: '1', isString: false });
    const result = joining.then(() => 'joined', (error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(await result).toContain('join room timeout');
  });
});
