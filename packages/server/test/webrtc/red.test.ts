import { describe, expect, it } from 'vitest';
import { Red, RedHandler, RtpHeader, RtpPacket } from 'werift';
import { decodeRed, encodeRed, RedHistory, RED_DISTANCE } from '../../src/webrtc/red.js';

const OPUS = 111;
const frame = (n: number) => Buffer.alloc(40 + n, n);

describe('43 RED: the payload the server builds from the Opus packets it forwards (RFC 2198)', () => {
  it('43 RED: packet layout — a 4-byte header per redundant block (F=1, PT, 14-bit offset, 10-bit length), a 1-byte one for the primary, then the blocks oldest first', () => {
    const out = encodeRed(OPUS, frame(3), 2880, [{ timestamp: 1920, payload: frame(1) }, { timestamp: 960, payload: frame(2) }].reverse());
    // Two redundant blocks: 960 (offset 1920, 42 bytes) then 1920 (offset 960, 41 bytes), then the primary.
    expect(out[0]).toBe(0x80 | OPUS);
    expect(out.readUIntBE(1, 3)).toBe((1920 << 10) | 42);
    expect(out[4]).toBe(0x80 | OPUS);
    expect(out.readUIntBE(5, 3)).toBe((960 << 10) | 41);
    expect(out[8]).toBe(OPUS);
    expect(out.length).toBe(9 + 42 + 41 + 43);
    expect(out.subarray(9, 9 + 42).equals(frame(2))).toBe(true);
    expect(out.subarray(9 + 42 + 41).equals(frame(3))).toBe(true);
    // werift's own parser (a receiver's) reads the same blocks.
    const parsed = Red.deSerialize(out);
    expect(parsed.blocks.map((b) => [b.blockPT, b.timestampOffset ?? 0, b.block.length])).toEqual([[OPUS, 1920, 42], [OPUS, 960, 41], [OPUS, 0, 43]]);
  });

  it('43 RED: timestamp offsets — the history carries the previous frames only, at most two, none older than 14 bits of offset', () => {
    const history = new RedHistory();
    const blocks = [0, 960, 1920, 2880].map((ts, i) => decodeRed(history.wrap(OPUS, frame(i), ts)));
    expect(blocks.map((b) => b?.map((x) => x.timestampOffset))).toEqual([[0], [960, 0], [1920, 960, 0], [1920, 960, 0]]);
    expect(RED_DISTANCE).toBe(2);
    // After a silence longer than the offset can say (16383 ticks, ~341 ms), the old frames are left out.
    expect(decodeRed(history.wrap(OPUS, frame(9), 2880 + 20_000))?.length).toBe(1);
    // A new source on the sender: nothing of the old one goes with its frames.
    history.clear();
    expect(decodeRed(history.wrap(OPUS, frame(1), 50_000))?.length).toBe(1);
  });

  it('43 RED: a receiver recovers a lost primary from the next packet (werift\'s RED handler as the receiver)', () => {
    const history = new RedHistory();
    const sent = [0, 1, 2, 3].map((i) => new RtpPacket(new RtpHeader({ sequenceNumber: 100 + i, timestamp: 960 * i, payloadType: 63 }), history.wrap(OPUS, frame(i), 960 * i)));
    const receiver = new RedHandler();
    const got = new Map<number, RtpPacket>();
    // Packets 101 and 102 lost on the downlink; 100 and 103 arrive.
    for (const packet of [sent[0], sent[3]]) for (const p of receiver.push(Red.deSerialize(packet.payload), packet)) got.set(p.header.sequenceNumber, p);
    expect([...got.keys()].sort()).toEqual([100, 101, 102, 103]);
    for (const i of [1, 2]) {
      expect(got.get(100 + i)?.header.timestamp).toBe(960 * i);
      expect(got.get(100 + i)?.payload.equals(frame(i))).toBe(true);
    }
  });
});
