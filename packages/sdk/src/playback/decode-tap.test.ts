import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkDecode, DECODE_CHECK_MS, onDecodeFailure, openDecodeTap, pipedDecodeTap, setDecodeTap } from './decode-tap.js';

/*
 * The automatic decoder fallback (docs/behaviour.md §4/§8): a tapped remote video whose frames arrive but are
 * not decoded 5 s in starts TRTCVideoDecoder. No browser can be made to fail its own decoder honestly, so
 * the receiver's statistics are given here; the e2e tests cover the decoder itself and the tap's frames.
 */

type Counts = { framesReceived: number; framesDecoded: number };

function receiverWith(counts: Counts): { receiver: RTCRtpReceiver; track: MediaStreamTrack } {
  const track = { readyState: 'live' } as MediaStreamTrack;
  const receiver = {
    track,
    transport: { state: 'connected' },
    getStats: () => Promise.resolve(new Map([['in', { type: 'inbound-rtp', ...counts }]])),
  } as unknown as RTCRtpReceiver;
  return { receiver, track };
}

describe('decode tap: the automatic fallback', () => {
  const started: unknown[][] = [];
  let stopListening: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('RTCRtpScriptTransform', function RTCRtpScriptTransform() { /* presence is what counts */ });
    setDecodeTap(true);
    started.length = 0;
    stopListening = onDecodeFailure((track, userId, streamType) => {
      started.push([track, userId, streamType]);
      return true;
    });
  });

  afterEach(() => {
    stopListening();
    setDecodeTap(false);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('frames received but none decoded 5 s in: the client that plays it starts the fallback decoder', async () => {
    const { receiver, track } = receiverWith({ framesReceived: 120, framesDecoded: 0 });
    pipedDecodeTap(receiver);
    checkDecode(track, 'alice', 'main');
    await vi.advanceTimersByTimeAsync(DECODE_CHECK_MS - 1);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([[track, 'alice', 'main']]);
  });

  it('nothing starts when frames are decoded, when none arrive, when cancelled, or when the tap is off', async () => {
    for (const counts of [{ framesReceived: 120, framesDecoded: 118 }, { framesReceived: 0, framesDecoded: 0 }]) {
      const { receiver, track } = receiverWith(counts);
      pipedDecodeTap(receiver);
      checkDecode(track, 'bob', 'sub');
    }
    const cancelled = receiverWith({ framesReceived: 120, framesDecoded: 0 });
    pipedDecodeTap(cancelled.receiver);
    checkDecode(cancelled.track, 'carol', 'main')();
    setDecodeTap(false);
    const untapped = receiverWith({ framesReceived: 120, framesDecoded: 0 });
    expect(pipedDecodeTap(untapped.receiver)).toBeUndefined();
    checkDecode(untapped.track, 'dave', 'main');
    await vi.advanceTimersByTimeAsync(DECODE_CHECK_MS * 2);
    expect(started).toEqual([]);
  });

  it("the piped tap sends copies once opened and withholds a delta frame (at most once a second) until a key frame comes", () => {
    const { receiver, track } = receiverWith({ framesReceived: 0, framesDecoded: 0 });
    const tap = pipedDecodeTap(receiver)!;
    const frame = (type: 'key' | 'delta') => ({ data: new Uint8Array([1, 2, 3]).buffer, type, timestamp: 1 });
    expect(tap(frame('delta'))).toBe(true); // not opened: passes, no copy
    const port = openDecodeTap(track)!;
    expect(port).toBeDefined();
    expect(tap(frame('delta'))).toBe(false); // a key frame is wanted: withheld so the receiver asks for one
    expect(tap(frame('delta'))).toBe(true); // not again within a second
    expect(tap(frame('key'))).toBe(true);
    vi.advanceTimersByTime(1500);
    expect(tap(frame('delta'))).toBe(true); // the key frame came: nothing withheld
    port.close();
  });
});
