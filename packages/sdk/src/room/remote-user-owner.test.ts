// @vitest-environment happy-dom
/**
 * docs/architecture.md "SDK remote users": the roster owns each remote user's record. Subscriptions and
 * RemotePlayback read it and keep what they receive and play in records of their own, so they work on a
 * deep-frozen record (an ES module is strict: a write to a frozen object throws); the roster's changes reach them
 * through its calls and their queries.
 */
import { FLAG } from '@conclave/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from '../common/emitter.js';
import type { SignalChannel } from '../signal/signal-channel.js';
import type { Downlink } from '../transport/downlink.js';
import type { EnterRoomConfig, TRTCEventTypes } from '../types.js';
import { AudioPlayer } from '../playback/audio-player.js';
import { RemotePlayback } from '../playback/remote-playback.js';
import { RemoteVideo } from '../playback/remote-video.js';
import { RosterUser, type RemoteUser, type SmallPreference } from './remote-user.js';
import { RemoteUsers } from './remote-users.js';
import type { RoomContext } from './room-context.js';
import { SMALL_SWITCH_RETRIES, Subscriptions } from './subscriptions.js';

type Request = { cmd: string; data: Record<string, unknown> };

const fakeTrack = (kind: string) => Object.assign(new EventTarget(), { kind, muted: false, readyState: 'live' }) as unknown as MediaStreamTrack;

/** IntersectionObservers made, so a test can say a view went out of sight. */
const observers: { callback: (entries: { isIntersecting: boolean }[]) => void; disconnected: boolean }[] = [];

beforeEach(() => {
  observers.length = 0;
  vi.stubGlobal('IntersectionObserver', class {
    readonly entry: (typeof observers)[number];
    constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
      this.entry = { callback, disconnected: false };
      observers.push(this.entry);
    }
    observe(): void {}
    disconnect(): void {
      this.entry.disconnected = true;
    }
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A room context on a fake signal channel whose replies the test chooses; the downlink carries fake tracks. */
function context(reply: (r: Request) => unknown) {
  const requests: Request[] = [];
  const signal = {
    request: (cmd: string, data: Record<string, unknown>) => {
      requests.push({ cmd, data });
      if (cmd === 'subscribe') return Promise.resolve({ audio: '0', video: '1', aux: '2' });
      return Promise.resolve().then(() => reply({ cmd, data }));
    },
  } as unknown as SignalChannel;
  const config = { autoReceiveAudio: true, autoReceiveVideo: false } as EnterRoomConfig;
  const ctx: RoomContext = {
    events: new Emitter<TRTCEventTypes>(), signal: () => signal, config: () => config, joined: () => true, userId: () => 'me',
    iceServers: () => [], iceTransportPolicy: () => 'all', watchLink: () => undefined,
  };
  const receivers = { audio: { track: fakeTrack('audio') }, video: { track: fakeTrack('video') }, aux: { track: fakeTrack('video') } };
  const downlink = () => ({
    peerConnection: { connectionState: 'connected' }, answer: async () => 'answer', close: () => undefined,
    receivers: async () => receivers,
  }) as unknown as Downlink;
  return { ctx, requests, downlink };
}

function deepFreeze<T extends object>(value: T): T {
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner && typeof inner === 'object' && !(inner instanceof Node)) deepFreeze(inner);
  }
  return Object.freeze(value);
}

describe('41 RemoteUser one owner', () => {
  it('41 RemoteUser one owner: Subscriptions and RemotePlayback only read the roster\'s record — a deep-frozen one goes through subscribe, playback, a hidden view, big/small switch retries and close', async () => {
    vi.useFakeTimers();
    let refuseSwitch = false;
    const { ctx, requests, downlink } = context((r) => {
      if (refuseSwitch && r.cmd === 'subscribe-change' && r.data.smallVideo) throw new Error('switch refused');
      return {};
    });
    const view = document.createElement('div');
    const record = new RosterUser('a', '1');
    record.flag = FLAG.AUDIO | FLAG.VIDEO | FLAG.SMALL;
    record.videoRequests.main = { views: [view], receiveWhenViewVisible: true };
    record.preference = { small: true };
    const user: RemoteUser = deepFreeze(record);
    const failed: SmallPreference[] = [];
    const playback = new RemotePlayback<RemoteUser>({ events: ctx.events, autoPlayDialog: () => false, visibilityChanged: (u) => subscriptions.syncLater(u, 'view') });
    const subscriptions: Subscriptions = new Subscriptions({
      ctx,
      current: (u) => u === user,
      mediaChanged: (u, tracks, sent) => playback.refresh(u, tracks, sent),
      hidden: (u) => playback.hidden(u.userId),
      switchFailed: (u) => failed.push(u.preference!),
    }, downlink);

    playback.observe(user, 'main', user.videoRequests.main!);
    await subscriptions.sync(user);
    expect(subscriptions.sent(user)).toEqual({ audio: true, bigVideo: false, smallVideo: true, auxVideo: false });
    expect(playback.players(user.userId)).toMatchObject({ audio: expect.any(AudioPlayer), main: expect.any(RemoteVideo) });

    // The view scrolls out of sight: playback records it, the subscription asks playback and drops the video.
    observers[0]!.callback([{ isIntersecting: false }]);
    expect(playback.hidden(user.userId).main).toBe(true);
    await vi.waitFor(() => expect(subscriptions.sent(user)).toMatchObject({ smallVideo: false }));
    expect(playback.players(user.userId)?.main).toBeUndefined();

    // Back in sight, the switch to the small stream is refused: retried, then given up — through the roster's hook.
    refuseSwitch = true;
    observers[0]!.callback([{ isIntersecting: true }]);
    for (let i = 0; i < SMALL_SWITCH_RETRIES + 3; i++) await vi.advanceTimersByTimeAsync(1000);
    expect(requests.filter((r) => r.cmd === 'subscribe-change' && r.data.smallVideo)).toHaveLength(SMALL_SWITCH_RETRIES);
    expect(failed).toEqual([user.preference]);

    subscriptions.close(user);
    playback.release(user);
    expect(subscriptions.sent(user)).toBeUndefined();
    expect(playback.players(user.userId)).toBeUndefined();
    expect(observers[0]!.disconnected).toBe(true);
  });

  it('41 RemoteUser one owner: only the roster writes — its record holds no subscription or playback state, and the others follow its calls (mute, volume, a dropped preference)', async () => {
    vi.useFakeTimers();
    const { ctx, downlink } = context((r) => {
      if (r.cmd === 'subscribe-change' && r.data.smallVideo) throw new Error('switch refused');
      return {};
    });
    const remotes = new RemoteUsers(ctx, downlink);
    remotes.onPeerJoin({ userId: 'a', tinyId: '1', role: 20, flag: 0 });
    remotes.onPublishList({ userList: [{ userId: 'a', tinyId: '1', role: 20, flag: FLAG.AUDIO | FLAG.VIDEO | FLAG.SMALL }] });
    const user = remotes.get('a')!;
    await remotes.startRemoteVideo('a', 'main', { views: [document.createElement('div')] });
    const rosterFields = ['userId', 'tinyId', 'flag', 'audioRequested', 'audioMuted', 'volume', 'videoRequests', 'preference'];
    expect(Object.keys(user).filter((key) => !rosterFields.includes(key))).toEqual([]);
    expect(Object.keys(user.videoRequests)).toEqual(['main']);

    const audio = remotes.playback.players('a')!.audio!;
    expect(audio).toBeInstanceOf(AudioPlayer);
    await remotes.muteRemoteAudio('a', true);
    remotes.setRemoteAudioVolume('a', 40);
    expect(user).toMatchObject({ audioMuted: true, volume: 40 });
    expect({ muted: audio.muted, volume: audio.volume }).toEqual({ muted: true, volume: 40 });

    // The preference is the roster's: Subscriptions gives up on the switch and the roster drops it.
    await expect(remotes.updateRemoteVideo('a', 'main', {}, true)).rejects.toMatchObject({ code: 5500 });
    expect(user.preference).toEqual({ small: true });
    for (let i = 0; i < SMALL_SWITCH_RETRIES + 3; i++) await vi.advanceTimersByTimeAsync(1000);
    expect(user.preference).toBeUndefined();
    expect(remotes.subscriptions.sent(user)).toMatchObject({ bigVideo: true, smallVideo: false });

    remotes.onPeerLeave('a');
    expect(remotes.playback.players('a')).toBeUndefined();
    expect(remotes.subscriptions.sent(user)).toBeUndefined();
  });
});
