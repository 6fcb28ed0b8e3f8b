// @vitest-environment happy-dom
import { FLAG, SERVER_CODE } from '@conclave/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Emitter } from '../common/emitter.js';
import { SignalReplyError, type SignalChannel } from '../signal/signal-channel.js';
import type { Downlink } from '../transport/downlink.js';
import type { EnterRoomConfig, TRTCEventTypes } from '../types.js';
import { RemoteUsers, SUBSCRIBE_TIMEOUT_MS } from './remote-users.js';
import { SMALL_SWITCH_RETRIES } from './subscriptions.js';
import { computeWants, type WantsInput } from './wants.js';

const base: WantsInput = {
  state: { hasAudio: true, hasVideo: true, hasSmall: true, hasAuxiliary: true, audioMuted: false, videoMuted: false, auxMuted: false },
  autoReceiveAudio: true, autoReceiveVideo: false, audioRequested: undefined,
  mainRequested: false, subRequested: false, mainHidden: false, subHidden: false, preferSmall: false,
};

describe('what is subscribed of a remote user', () => {
  it('autoReceiveAudio / autoReceiveVideo (defaults: audio yes, video no)', () => {
    expect(computeWants(base)).toEqual({ audio: true, bigVideo: false, smallVideo: false, auxVideo: false });
    expect(computeWants({ ...base, autoReceiveVideo: true })).toEqual({ audio: true, bigVideo: true, smallVideo: false, auxVideo: true });
    expect(computeWants({ ...base, autoReceiveAudio: false })).toMatchObject({ audio: false });
    // muteRemoteAudio(…, false) asks for the audio even with autoReceiveAudio off.
    expect(computeWants({ ...base, autoReceiveAudio: false, audioRequested: true })).toMatchObject({ audio: true });
  });

  it('startRemoteVideo asks for a video; the small one instead of the big one when preferred and published', () => {
    expect(computeWants({ ...base, mainRequested: true })).toMatchObject({ bigVideo: true, smallVideo: false });
    expect(computeWants({ ...base, mainRequested: true, preferSmall: true })).toMatchObject({ bigVideo: false, smallVideo: true });
    // No small stream published: the big one.
    expect(computeWants({ ...base, mainRequested: true, preferSmall: true, state: { ...base.state, hasSmall: false } }))
      .toMatchObject({ bigVideo: true, smallVideo: false });
    expect(computeWants({ ...base, subRequested: true })).toMatchObject({ auxVideo: true, bigVideo: false });
  });

  it('nothing of what is unpublished, muted, or out of sight (receiveWhenViewVisible)', () => {
    const state = { ...base.state, audioMuted: true, videoMuted: true, hasAuxiliary: false };
    expect(computeWants({ ...base, state, mainRequested: true, subRequested: true })).toEqual({ audio: false, bigVideo: false, smallVideo: false, auxVideo: false });
    expect(computeWants({ ...base, mainRequested: true, mainHidden: true })).toMatchObject({ bigVideo: false });
  });
});

type Request = { cmd: string; data: Record<string, unknown>; timeout?: number };

async function setup(reply: (r: Request) => Promise<unknown>) {
  const requests: Request[] = [];
  const signal = {
    request: (cmd: string, data: Record<string, unknown>, timeout?: number) => {
      const r = { cmd, data, timeout };
      requests.push(r);
      if (cmd === 'subscribe') return Promise.resolve({ audio: '0', video: '1', aux: '2' });
      return reply(r);
    },
  } as unknown as SignalChannel;
  const events = new Emitter<TRTCEventTypes>();
  const config = { autoReceiveAudio: true, autoReceiveVideo: false } as EnterRoomConfig;
  // The downlink is the only part faked: there is no peer connection in this environment.
  const receiver = { track: undefined } as unknown as RTCRtpReceiver;
  const fakeDownlink = () => ({
    peerConnection: { connectionState: 'connected' }, answer: async () => 'answer', close: () => undefined,
    receivers: async () => ({ audio: receiver, video: receiver, aux: receiver }),
  }) as unknown as Downlink;
  const remotes = new RemoteUsers({
    events, signal: () => signal, config: () => config, joined: () => true, userId: () => 'me',
    iceServers: () => [], iceTransportPolicy: () => 'all', watchLink: () => undefined,
  }, fakeDownlink);
  remotes.onPeerJoin({ userId: 'a', tinyId: '1', role: 20, flag: 0 });
  const user = remotes.get('a')!;
  // Already subscribed to the audio.
  remotes.onPublishList({ userList: [{ userId: 'a', tinyId: '1', role: 20, flag: FLAG.AUDIO | FLAG.VIDEO | FLAG.SMALL }] });
  await remotes.subscriptions.sync(user);
  // One subscribe; its reply names the m-lines on the one downlink.
  expect(requests.map((r) => r.cmd)).toEqual(['subscribe']);
  expect(remotes.subscriptions.sent(user)).toEqual({ audio: true, bigVideo: false, smallVideo: false, auxVideo: false });
  requests.length = 0;
  return { remotes, user, requests };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('subscriptions on the wire (docs/behaviour.md §4, §7)', () => {
  it('a downlink the server closed (downlink-closed push) is rebuilt: downlink-reset, then every user subscribed again; offers are answered as they come, never guessed at', async () => {
    const { remotes, user, requests } = await setup(async () => ({}));
    remotes.subscriptions.onOffer({ seq: 3, sdp: 'one-ice-session' });
    remotes.subscriptions.onOffer({ seq: 4, sdp: 'another-ice-session' });
    await vi.waitFor(() => expect(requests.map((r) => r.cmd)).toEqual(['downlink-answer', 'downlink-answer']));
    requests.length = 0;
    remotes.rebuildDownlink(); // what the room does on the server's downlink-closed push
    await vi.waitFor(() => expect(requests.map((r) => r.cmd)).toEqual(['downlink-reset', 'subscribe']));
    await remotes.subscriptions.sync(user);
    expect(remotes.subscriptions.sent(user)).toEqual({ audio: true, bigVideo: false, smallVideo: false, auxVideo: false });
  });

  it('startRemoteVideo sends a subscription change with a 10 s time-out; small:true asks for the small stream', async () => {
    const { remotes, requests } = await setup(async () => ({}));
    await remotes.startRemoteVideo('a', 'main', { views: [] }, true);
    expect(requests).toEqual([{ cmd: 'subscribe-change', data: { srcUserId: 'a', audio: true, bigVideo: false, smallVideo: true, auxVideo: false }, timeout: SUBSCRIBE_TIMEOUT_MS }]);
    expect(SUBSCRIBE_TIMEOUT_MS).toBe(10_000);
    await remotes.updateRemoteVideo('a', 'main', {}, false);
    expect(requests[1]!.data).toMatchObject({ bigVideo: true, smallVideo: false });
    // Nothing left: unsubscribe.
    await remotes.muteRemoteAudio('a', true);
    remotes.onPublishList({ userList: [{ userId: 'a', tinyId: '1', role: 20, flag: FLAG.VIDEO }] });
    await remotes.stopRemoteVideo('a', 'main');
    expect(requests.at(-1)).toMatchObject({ cmd: 'unsubscribe', data: { srcUserId: 'a' } });
  });

  it('a failed big/small switch is retried, 10 tries in all, then the preference is dropped', async () => {
    vi.useFakeTimers();
    const { remotes, user, requests } = await setup(async (r) => {
      if (r.cmd === 'subscribe-change' && r.data.smallVideo) throw new Error('switch refused');
      return {};
    });
    await remotes.startRemoteVideo('a', 'main', { views: [] });
    expect(remotes.subscriptions.sent(user)).toMatchObject({ bigVideo: true, smallVideo: false });
    await expect(remotes.updateRemoteVideo('a', 'main', {}, true)).rejects.toMatchObject({ code: 5500 });
    for (let i = 0; i < SMALL_SWITCH_RETRIES + 3; i++) await vi.advanceTimersByTimeAsync(1000);
    const tries = requests.filter((r) => r.cmd === 'subscribe-change' && r.data.smallVideo);
    expect(tries.length).toBe(SMALL_SWITCH_RETRIES);
    expect(SMALL_SWITCH_RETRIES).toBe(10);
    expect(user.preference).toBeUndefined();
    expect(remotes.subscriptions.sent(user)).toMatchObject({ bigVideo: true, smallVideo: false });
  });

  it('a subscription change refused because the server dropped the downlink meanwhile (its downlink-closed push came first) subscribes afresh: startRemoteVideo succeeds', async () => {
    const holder: { remotes?: RemoteUsers } = {};
    const { remotes, user, requests } = await setup(async (r) => {
      if (r.cmd !== 'subscribe-change') return {};
      holder.remotes!.rebuildDownlink(); // the push, ahead of the reply on the same socket
      throw new SignalReplyError('subscribe-change', SERVER_CODE.SUBSCRIPTION_NOT_FOUND, 'has no subscription');
    });
    holder.remotes = remotes;
    await remotes.startRemoteVideo('a', 'main', { views: [] });
    expect(requests.map((r) => r.cmd)).toEqual(['subscribe-change', 'downlink-reset', 'subscribe']);
    expect(requests[2]!.data).toMatchObject({ srcUserId: 'a', bigVideo: true });
    await remotes.subscriptions.sync(user);
    expect(remotes.subscriptions.sent(user)).toMatchObject({ bigVideo: true });
  });

  it("a stream unpublished meanwhile: 'remoteStream does not exist because it has been unpublished' (OPERATION_ABORT)", async () => {
    const { remotes } = await setup(async (r) => {
      if (r.cmd === 'subscribe-change') throw new SignalReplyError('subscribe-change', SERVER_CODE.STREAM_NOT_EXIST, 'no such stream');
      return {};
    });
    await expect(remotes.startRemoteVideo('a', 'main', { views: [] })).rejects.toMatchObject({
      name: 'RtcError', code: 5998, message: expect.stringContaining('remoteStream does not exist because it has been unpublished'),
    });
  });

  it('startRemoteVideo checks (docs/behaviour.md §5): the user exists and publishes that stream', async () => {
    const { remotes } = await setup(async () => ({}));
    await expect(remotes.startRemoteVideo('nobody', 'main', { views: [] })).rejects.toMatchObject({ code: 5100, extraCode: 5102 });
    await expect(remotes.startRemoteVideo('a', 'sub', { views: [] })).rejects.toMatchObject({ code: 5100, extraCode: 5103 });
  });

  it("muteRemoteAudio('*') and setRemoteAudioVolume('*') also apply to users who enter later", async () => {
    const { remotes } = await setup(async () => ({}));
    await remotes.muteRemoteAudio('*', true);
    remotes.setRemoteAudioVolume('*', 150);
    remotes.onPeerJoin({ userId: 'b', tinyId: '2', role: 20, flag: 0 });
    expect(remotes.get('b')).toMatchObject({ audioMuted: true, volume: 150 });
    expect(remotes.get('a')).toMatchObject({ audioMuted: true, volume: 150 });
  });

  it('a failed unsubscribe is reported: stopRemoteVideo rejects with OPERATION_FAILED, the downlink is released anyway', async () => {
    const { remotes, user } = await setup(async (r) => {
      if (r.cmd === 'unsubscribe') throw new SignalReplyError('unsubscribe', 1, 'refused');
      return {};
    });
    await remotes.startRemoteVideo('a', 'main', { views: [] });
    remotes.onPublishList({ userList: [{ userId: 'a', tinyId: '1', role: 20, flag: FLAG.VIDEO }] }); // audio gone: the main video is all that is wanted
    await remotes.subscriptions.sync(user);
    await expect(remotes.stopRemoteVideo('a', 'main')).rejects.toMatchObject({ name: 'RtcError', code: 5500, message: expect.stringContaining('unsubscribe failed') });
    expect(remotes.subscriptions.sent(user)).toBeUndefined();
    expect(remotes.subscriptions.peerConnections()).toEqual([]);
  });
});
