import { MediaStreamTrack, type RTCRtpReceiver, type RtpPacket } from 'werift';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { delta, H264, keyframe, packet } from '../support/h264-rtp.js';
import { ForwardSource, type PacketSink } from '../../src/webrtc/forward-source.js';

/** A source fed by a werift track; the receiver only counts the key-frame requests (PLIs) it is asked to send. */
function source() {
  const track = new MediaStreamTrack({ kind: 'video', ssrc: 1234 });
  let plis = 0;
  const receiver = { sendRtcpPLI: async () => { plis++; } } as unknown as RTCRtpReceiver;
  const forward = new ForwardSource();
  forward.attach(track, receiver, H264);
  const send = (packets: RtpPacket[]) => { for (const rtp of packets) track.onReceiveRtp.execute(rtp); };
  return { forward, send, plis: () => plis };
}

function sink(): { sink: PacketSink; got: { ts: number; restarted: boolean }[] } {
  const got: { ts: number; restarted: boolean }[] = [];
  return { sink: (rtp, restarted) => got.push({ ts: rtp.header.timestamp, restarted }), got };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('forward source: recent key frame for a new subscriber (first frame)', () => {
  it('a subscriber that comes within 500 ms of a key frame asked for is handed it and the frames since, and asks for none', () => {
    const { forward, send, plis } = source();
    const first = sink();
    forward.addSink(first.sink);
    forward.requestKeyframe();
    expect(plis()).toBe(1);
    send([packet(1000, delta, true), ...keyframe(4000), packet(7000, delta, true), packet(10_000, delta, true)]);

    const second = sink();
    forward.addSink(second.sink);
    expect(forward.replay(second.sink)).toBe(true);
    expect(second.got.map((p) => p.ts)).toEqual([4000, 4000, 4000, 4000, 7000, 10_000]);
    expect(second.got.map((p) => p.restarted)).toEqual([true, false, false, false, false, false]);
    // Live packets continue without another restart.
    send([packet(13_000, delta, true)]);
    expect(second.got.at(-1)).toEqual({ ts: 13_000, restarted: false });
    expect(plis()).toBe(1);
  });

  it('nothing is replayed past 500 ms of video, when the stream stalled, or without a key frame asked for in the last second', () => {
    vi.useFakeTimers();
    const old = source();
    old.forward.requestKeyframe();
    old.send([...keyframe(4000), ...Array.from({ length: 16 }, (_, i) => packet(7000 + i * 3000, delta, true))]); // 4000 → 52000: > 500 ms
    const a = sink();
    old.forward.addSink(a.sink);
    expect(old.forward.replay(a.sink)).toBe(false);

    const stalled = source();
    stalled.forward.requestKeyframe();
    stalled.send(keyframe(4000));
    vi.advanceTimersByTime(250);
    const b = sink();
    stalled.forward.addSink(b.sink);
    expect(stalled.forward.replay(b.sink)).toBe(false);

    const unasked = source();
    unasked.send(keyframe(4000));
    const c = sink();
    unasked.forward.addSink(c.sink);
    expect(unasked.forward.replay(c.sink)).toBe(false);
    expect(c.got).toEqual([]);
  });
});

describe('forward source: a key-frame request is repeated until a key frame comes', () => {
  it('a PLI the publisher does not answer (lost, sent before its link was up, ignored) is sent again, and no more once a key frame arrives', () => {
    vi.useFakeTimers();
    const { forward, send, plis } = source();
    const subscriber = sink();
    forward.addSink(subscriber.sink);
    forward.requestKeyframe();
    expect(plis()).toBe(1);
    // Delta frames only: the publisher did not answer.
    send([packet(1000, delta, true), packet(4000, delta, true)]);
    vi.advanceTimersByTime(600);
    expect(plis()).toBe(2);
    send([packet(7000, delta, true)]);
    vi.advanceTimersByTime(600);
    expect(plis()).toBe(3);
    send(keyframe(10_000));
    vi.advanceTimersByTime(5000);
    expect(plis()).toBe(3);
  });

  it('is not repeated while no video comes (a layer not sent), and gives up after ten seconds', () => {
    vi.useFakeTimers();
    const silent = source();
    silent.forward.requestKeyframe();
    vi.advanceTimersByTime(11_000);
    expect(silent.plis()).toBe(1);

    const { forward, send, plis } = source();
    forward.requestKeyframe();
    for (let t = 0; t < 11_000; t += 100) {
      send([packet(1000 + t * 90, delta, true)]);
      vi.advanceTimersByTime(100);
    }
    const sent = plis();
    expect(sent).toBeGreaterThan(10);
    send([packet(2_000_000, delta, true)]);
    vi.advanceTimersByTime(5000);
    expect(plis()).toBe(sent);
  });

  it('a request made before the publisher\'s link was up is sent again as soon as it connects', () => {
    vi.useFakeTimers();
    const { forward, plis } = source();
    forward.requestKeyframe();
    vi.advanceTimersByTime(100);
    forward.linkUp();
    expect(plis()).toBe(2);
  });
});
