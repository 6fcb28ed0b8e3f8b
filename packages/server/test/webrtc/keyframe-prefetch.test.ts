import { RtpHeader, RtpPacket } from 'werift';
import { delta, fuIdr, H264, keyframe, packet, stapSpsPps } from '../support/h264-rtp.js';
import { describe, expect, it } from 'vitest';
import { framePart, KeyframePrefetch } from '../../src/webrtc/keyframe-prefetch.js';

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
