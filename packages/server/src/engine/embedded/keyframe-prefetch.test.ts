import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { framePart, KeyframePrefetch } from './keyframe-prefetch.js';

const H264 = 'video/H264';
let seq = 100;

/** An H264 (or VP8) RTP packet with payload `nal`. */
const packet = (timestamp: number, nal: number[], marker = false) =>
  new RtpPacket(new RtpHeader({ sequenceNumber: seq++, timestamp, marker, payloadType: 102 }), Buffer.from(nal));

// STAP-A (24) with SPS (7) and PPS (8); FU-A (28) start / middle / end of an IDR slice (5); a non-IDR slice (1).
const stapSpsPps = [0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce];
const fuIdr = (start: boolean, end = false) => [0x7c, (start ? 0x80 : 0) | (end ? 0x40 : 0) | 5, 0x88, 0x84];
const delta = [0x41, 0x9a, 0x02];

/** A whole key frame at `ts`: SPS/PPS, then the IDR slice in three fragments. */
const keyframe = (ts: number) => [packet(ts, stapSpsPps), packet(ts, fuIdr(true)), packet(ts, fuIdr(false)), packet(ts, fuIdr(false, true), true)];

describe('key-frame prefetch (first frame)', () => {
  it('recognises the packets of H264 IDR slices, and parameter sets as a frame\'s first packet', () => {
    expect(framePart(H264, packet(1, fuIdr(true)))).toEqual({ keyframe: true, first: false });
    expect(framePart(H264, packet(1, [0x65, 0x88, 0x84]))).toEqual({ keyframe: true, first: false });
    expect(framePart(H264, packet(1, delta))).toEqual({ keyframe: false, first: false });
    expect(framePart(H264, packet(1, stapSpsPps))).toEqual({ keyframe: false, first: true });
    expect(framePart(H264, packet(1, [0x67, 0x42, 0x00]))).toEqual({ keyframe: false, first: true });
    expect(framePart('video/VP9', packet(1, fuIdr(true)))).toEqual({ keyframe: false, first: false });
    expect(framePart(H264, new RtpPacket(new RtpHeader(), Buffer.alloc(0)))).toEqual({ keyframe: false, first: false });
  });

  it('recognises a VP8 key frame by its first partition head', () => {
    // Payload descriptor S=1 PID=0 (0x10), then the VP8 header with P=0 (key frame) or P=1.
    expect(framePart('video/VP8', packet(1, [0x10, 0x00, 0x9d]))).toEqual({ keyframe: true, first: true });
    expect(framePart('video/VP8', packet(1, [0x10, 0x01, 0x9d]))).toEqual({ keyframe: false, first: true });
    expect(framePart('video/VP8', packet(1, [0x00, 0x00, 0x9d]))).toEqual({ keyframe: false, first: false });
  });

  it('holds a whole key frame (with the SPS/PPS before it) and the frames after it, in order', () => {
    const prefetch = new KeyframePrefetch();
    const before = [packet(1000, delta, true)];
    const key = keyframe(4000);
    const after = [packet(7000, delta, true), packet(10000, delta), packet(10000, delta, true)];
    for (const rtp of [...before, ...key, ...after]) prefetch.hold(rtp, H264, false);
    expect(prefetch.take()).toEqual([...key, ...after]);
    expect(prefetch.take()).toBeUndefined();
  });

  it('gives nothing without a key frame, or when the key frame began before holding did', () => {
    const deltas = new KeyframePrefetch();
    for (const rtp of [packet(1, delta, true), packet(2, delta, true)]) deltas.hold(rtp, H264, false);
    expect(deltas.take()).toBeUndefined();

    const late = new KeyframePrefetch();
    const [, ...tail] = keyframe(3000); // the SPS/PPS packet was never seen
    for (const rtp of [...tail, packet(6000, delta, true)]) late.hold(rtp, H264, false);
    expect(late.take()).toBeUndefined();

    // A key frame that starts with its parameter sets is whole even as the first packets held.
    const first = new KeyframePrefetch();
    const key = keyframe(6000);
    for (const rtp of [...key, packet(7500, delta, true)]) first.hold(rtp, H264, false);
    expect(first.take()).toEqual([...key, expect.anything()]);

    // Without them, a frame is known to start only after another's last packet: the next key frame is taken.
    const bare = new KeyframePrefetch();
    const idr = (ts: number) => [packet(ts, fuIdr(true)), packet(ts, fuIdr(false, true), true)];
    const next = idr(9000);
    for (const rtp of [...idr(6000), packet(7500, delta, true), ...next]) bare.hold(rtp, H264, false);
    expect(bare.take()).toEqual(next);
  });

  it('starts again when the source restarts, and drops what it holds past its bounds (400 packets, 1 s)', () => {
    const prefetch = new KeyframePrefetch();
    for (const rtp of [packet(1, delta, true), ...keyframe(3000)]) prefetch.hold(rtp, H264, false);
    prefetch.hold(packet(50, delta, true), H264, true);
    expect(prefetch.take()).toBeUndefined();

    const bounded = new KeyframePrefetch();
    for (const rtp of [packet(1, delta, true), ...keyframe(3000)]) bounded.hold(rtp, H264, false);
    for (let i = 0; i < 400; i++) bounded.hold(packet(6000 + i * 10, delta, true), H264, false);
    expect(bounded.take()).toBeUndefined();

    // More than a second of video (90 kHz) after the key frame: that moment is gone.
    const stale = new KeyframePrefetch();
    for (const rtp of [packet(1, delta, true), ...keyframe(3000)]) stale.hold(rtp, H264, false);
    for (let i = 1; i <= 31; i++) stale.hold(packet(3000 + i * 3000, delta, true), H264, false);
    expect(stale.take()).toBeUndefined();
    const fresh = new KeyframePrefetch();
    for (const rtp of [packet(1, delta, true), ...keyframe(3000)]) fresh.hold(rtp, H264, false);
    for (let i = 1; i <= 29; i++) fresh.hold(packet(3000 + i * 3000, delta, true), H264, false);
    expect(fresh.take()).toHaveLength(4 + 29);
  });
});
