import { DATA_RECORD, decodeRecords, encodeRecords, readUint32, uint32Bytes } from '@conclave/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from '../common/emitter.js';
import type { DataLink } from '../transport/data-link.js';
import type { TRTCEventTypes } from '../types.js';
import { CustomMessages, SEQ_START_BELOW } from './custom-messages.js';
import { ORDERING, StreamOrderer } from './orderer.js';
import { RateWindow } from './rate-window.js';

describe('tagged records', () => {
  it('round-trip and reject a truncated buffer', () => {
    const records = [{ tag: 1, value: new TextEncoder().encode('42') }, { tag: 2, value: new Uint8Array(1000).fill(9) }, { tag: 4, value: uint32Bytes(0xfffffffe) }];
    const bytes = encodeRecords(records);
    const back = decodeRecords(bytes)!;
    expect(back.map((r) => r.tag)).toEqual([1, 2, 4]);
    expect(new TextDecoder().decode(back[0].value)).toBe('42');
    expect(back[1].value.length).toBe(1000);
    expect(readUint32(back[2].value)).toBe(0xfffffffe);
    expect(decodeRecords(bytes.subarray(0, bytes.length - 1))).toBeNull();
  });
});

describe('RateWindow', () => {
  it('allows 30 messages and 8000 bytes in any second', () => {
    let now = 0;
    const window = new RateWindow(30, 8000, 1000, () => now);
    for (let i = 0; i < 30; i++) expect(window.take(10)).toBe(true);
    expect(window.take(10)).toBe(false);
    now = 999;
    expect(window.take(10)).toBe(false);
    now = 1000;
    for (let i = 0; i < 8; i++) expect(window.take(1000)).toBe(true);
    expect(window.take(1)).toBe(false);
    now = 2000;
    expect(window.take(1000)).toBe(true);
  });
});

describe('StreamOrderer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = () => {
    const out: number[] = [];
    const orderer = new StreamOrderer<string>((seq) => out.push(seq));
    return { out, orderer };
  };

  it('holds a stream\'s first message 100 ms so an earlier one may overtake it', () => {
    const { out, orderer } = make();
    orderer.push(11, 'b');
    orderer.push(10, 'a');
    expect(out).toEqual([]);
    vi.advanceTimersByTime(ORDERING.FIRST_MESSAGE_WAIT_MS);
    expect(out).toEqual([10, 11]);
    orderer.push(12, 'c');
    expect(out).toEqual([10, 11, 12]);
  });

  it('waits up to 5 s for a gap, then delivers in order skipping it', () => {
    const { out, orderer } = make();
    orderer.push(1, 'a');
    vi.advanceTimersByTime(100);
    orderer.push(3, 'c');
    orderer.push(4, 'd');
    expect(out).toEqual([1]);
    vi.advanceTimersByTime(ORDERING.OUT_OF_ORDER_WAIT_MS - 1);
    orderer.push(2, 'b');
    expect(out).toEqual([1, 2, 3, 4]);
    orderer.push(6, 'f');
    vi.advanceTimersByTime(ORDERING.OUT_OF_ORDER_WAIT_MS);
    expect(out).toEqual([1, 2, 3, 4, 6]);
    orderer.push(5, 'late');
    expect(out).toEqual([1, 2, 3, 4, 6]);
  });

  it('resets on a jump above 300 and drops duplicates', () => {
    const { out, orderer } = make();
    orderer.push(5000, 'a');
    vi.advanceTimersByTime(100);
    orderer.push(5000, 'dup');
    orderer.push(7, 'restart');
    orderer.push(8, 'next');
    expect(out).toEqual([5000, 7, 8]);
    orderer.push(8 + ORDERING.MAX_GAP, 'held');
    expect(out).toEqual([5000, 7, 8]);
    orderer.push(9 + ORDERING.MAX_GAP + 1, 'reset');
    expect(out).toEqual([5000, 7, 8, 8 + ORDERING.MAX_GAP, 10 + ORDERING.MAX_GAP]);
  });
});

describe('CustomMessages', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = (known: Record<string, string>) => {
    const events = new Emitter<TRTCEventTypes>();
    const got: { userId: string; cmdId: number; seq: number; data: number[] }[] = [];
    events.on('custom-message', (m) => got.push({ userId: m.userId, cmdId: m.cmdId, seq: m.seq, data: [...new Uint8Array(m.data)] }));
    const sent: Uint8Array[] = [];
    const link = { send: (d: Uint8Array) => { sent.push(d); return true; } } as unknown as DataLink;
    const messages = new CustomMessages({ events, userIdOf: (tinyId) => known[tinyId], link: () => link });
    return { messages, got, sent };
  };
  const incoming = (tinyId: string, cmdId: number, seq: number, data: number[]) => encodeRecords([
    { tag: DATA_RECORD.TINY_ID, value: new TextEncoder().encode(tinyId) },
    { tag: DATA_RECORD.CMD_ID, value: new Uint8Array([cmdId]) },
    { tag: DATA_RECORD.SEQ, value: uint32Bytes(seq) },
    { tag: DATA_RECORD.PAYLOAD, value: new Uint8Array(data) },
  ]);

  it('numbers each cmdId stream from a random start below 16383 and refuses beyond the rate limits', () => {
    const { messages, sent } = setup({});
    for (let i = 0; i < 3; i++) messages.send(1, new Uint8Array([i]).buffer);
    messages.send(2, new Uint8Array([9]).buffer);
    const seqOf = (d: Uint8Array) => readUint32(decodeRecords(d)!.find((r) => r.tag === DATA_RECORD.SEQ)!.value);
    const seqs = sent.slice(0, 3).map(seqOf);
    expect(seqs[0]).toBeLessThan(SEQ_START_BELOW);
    expect(seqs).toEqual([seqs[0], seqs[0] + 1, seqs[0] + 2]);
    for (let i = 0; i < 26; i++) messages.send(3, new Uint8Array([1]).buffer);
    expect(() => messages.send(3, new Uint8Array([1]).buffer)).toThrow('call frequency limit exceeded');
  });

  it('delivers in order per sender and stream, and holds an unknown sender 2 s for its peer join', () => {
    const known: Record<string, string> = { '7': 'alice' };
    const { messages, got } = setup(known);
    messages.receive(incoming('7', 1, 501, [2]));
    messages.receive(incoming('7', 1, 500, [1]));
    messages.receive(incoming('8', 1, 10, [3]));
    vi.advanceTimersByTime(100);
    expect(got.map((m) => [m.userId, m.seq, m.data[0]])).toEqual([['alice', 500, 1], ['alice', 501, 2]]);
    known['8'] = 'bob';
    messages.onPeerJoin('8');
    vi.advanceTimersByTime(100);
    expect(got.at(-1)).toEqual({ userId: 'bob', cmdId: 1, seq: 10, data: [3] });
    messages.receive(incoming('9', 1, 1, [4]));
    vi.advanceTimersByTime(ORDERING.UNKNOWN_USER_WAIT_MS);
    known['9'] = 'late';
    messages.onPeerJoin('9');
    vi.advanceTimersByTime(200);
    expect(got.map((m) => m.userId)).not.toContain('late');
  });
});
