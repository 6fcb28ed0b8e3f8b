// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlaybackCore, RECREATE_STREAM_DELAY_MS } from './playback-core.js';
import type { PlayerState, PlayReason } from './player-state.js';

/** A media element whose play() does what the test says. */
function fakeElement(play: () => Promise<void>) {
  const element = document.createElement('video');
  let paused = true;
  let error: { code: number; message: string } | null = null;
  Object.defineProperty(element, 'paused', { get: () => paused });
  Object.defineProperty(element, 'error', { get: () => error });
  let src: unknown = null;
  Object.defineProperty(element, 'srcObject', { get: () => src, set: (value: unknown) => { src = value; } });
  element.play = vi.fn(async () => {
    await play();
    paused = false;
    element.dispatchEvent(new Event('playing'));
  });
  return {
    element,
    pause: () => {
      paused = true;
      element.dispatchEvent(new Event('pause'));
    },
    fail: () => {
      error = { code: 3, message: 'decode' };
      element.dispatchEvent(new Event('error'));
    },
  };
}

const fakeTrack = () => Object.assign(new EventTarget(), { muted: false, kind: 'video' }) as unknown as MediaStreamTrack;

beforeEach(() => {
  vi.stubGlobal('MediaStream', class { constructor(readonly tracks: MediaStreamTrack[]) {} });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a player (docs/behaviour.md §4 player states, §8 PLAY_NOT_ALLOWED, decode errors)', () => {
  it('follows the element and the track: PLAYING, PAUSED (mute / pause), PLAYING (unmute), STOPPED (ended)', async () => {
    const { element, pause } = fakeElement(async () => undefined);
    const track = fakeTrack();
    const changes: [PlayerState, PlayReason][] = [];
    const core = new PlaybackCore(element, track, { onState: (s, r) => changes.push([s, r]) });
    await core.play();
    track.dispatchEvent(new Event('mute'));
    track.dispatchEvent(new Event('unmute'));
    pause();
    core.stop();
    expect(changes.slice(0, 4)).toEqual([['PLAYING', 'playing'], ['PAUSED', 'mute'], ['PLAYING', 'unmute'], ['PAUSED', 'pause']]);
    expect(changes.at(-1)).toEqual(['STOPPED', 'ended']);
  });

  it('a paused player resumes on its own, 5 times at most', async () => {
    const { element, pause } = fakeElement(async () => undefined);
    const core = new PlaybackCore(element, fakeTrack(), {});
    await core.play();
    for (let i = 0; i < 7; i++) {
      pause();
      await Promise.resolve();
      await Promise.resolve();
    }
    expect(element.play).toHaveBeenCalledTimes(1 + 5);
    expect(core.resumesLeft).toBe(0);
  });

  it('a refusal by the autoplay policy (NotAllowedError) is reported once, with a resume', async () => {
    let allowed = false;
    const { element } = fakeElement(async () => {
      if (!allowed) throw new DOMException('needs a gesture', 'NotAllowedError');
    });
    const resumes: (() => Promise<void>)[] = [];
    const states: PlayerState[] = [];
    const core = new PlaybackCore(element, fakeTrack(), { onBlocked: (resume) => resumes.push(resume), onState: (s) => states.push(s) });
    await core.play();
    await core.play();
    expect(resumes.length).toBe(1);
    expect(core.blocked).toBe(true);
    allowed = true;
    await resumes[0]!();
    expect(core.blocked).toBe(false);
    expect(states).toEqual(['PLAYING']);
  });

  it('a decode error pauses, and the stream is recreated after 1 s', async () => {
    vi.useFakeTimers();
    const { element, fail } = fakeElement(async () => undefined);
    const states: [PlayerState, PlayReason][] = [];
    const core = new PlaybackCore(element, fakeTrack(), { onState: (s, r) => states.push([s, r]) });
    await core.play();
    const before = element.srcObject;
    fail();
    expect(states.at(-1)).toEqual(['PAUSED', 'error']);
    await vi.advanceTimersByTimeAsync(RECREATE_STREAM_DELAY_MS - 10);
    expect(element.srcObject).toBe(before);
    await vi.advanceTimersByTimeAsync(20);
    expect(element.srcObject).not.toBe(before);
    expect(element.play).toHaveBeenCalledTimes(2);
    expect(RECREATE_STREAM_DELAY_MS).toBe(1000);
  });
});
