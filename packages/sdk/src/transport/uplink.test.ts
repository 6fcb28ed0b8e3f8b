import { describe, expect, it } from 'vitest';
import { checkPublishConsistency } from '../room/publisher.js';
import { mungeAnswer, START_BITRATE_CAP_KBPS, UPLINK_SLOTS } from './uplink.js';

const ANSWER = [
  'v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2', 'a=fmtp:111 minptime=10;useinbandfec=1',
  'm=video 9 UDP/TLS/RTP/SAVPF 102 96', 'a=rtpmap:102 H264/90000', 'a=fmtp:102 packetization-mode=1;profile-level-id=42001f',
  'a=rtpmap:96 VP8/90000', 'a=rtpmap:97 rtx/90000', 'a=fmtp:97 apt=96', '',
].join('\r\n');

describe('uplink', () => {
  it('has the m-line order 0 audio, 1 big video, 2 small video, 3 auxiliary (docs/behaviour.md §4)', () => {
    expect(UPLINK_SLOTS).toEqual(['audio', 'video', 'small', 'aux']);
  });

  it('adds the start bitrate (capped at 5000 kbit/s) and opus stereo / bitrate to the answer', () => {
    const sdp = mungeAnswer(ANSWER, { startBitrateKbps: 9000, stereo: true, audioBitrateKbps: 192 });
    expect(sdp).toContain(`a=fmtp:102 packetization-mode=1;profile-level-id=42001f;x-google-start-bitrate=${START_BITRATE_CAP_KBPS}`);
    expect(sdp).toContain('a=fmtp:111 minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1;maxaveragebitrate=192000');
    expect(sdp).toContain('a=fmtp:97 apt=96');
    expect(mungeAnswer(ANSWER, { startBitrateKbps: 800 })).toContain('x-google-start-bitrate=800');
    expect(mungeAnswer(ANSWER, {})).toBe(ANSWER);
  });
});

describe('publish-state consistency check (docs/behaviour.md §4)', () => {
  it('lists a flag the server did not take and a slot that sends when it should not', () => {
    expect(checkPublishConsistency(9, 9, () => false, () => false)).toEqual([]);
    expect(checkPublishConsistency(9, 1, (slot) => slot === 'video', (slot) => slot === 'audio'))
      .toEqual(['local flag 9, server flag 1', 'audio should not be sending', 'video should be sending']);
  });
});

describe('publish request retries (docs/behaviour.md §7)', () => {
  it('retries a timed-out request 3 times, never a refusal', async () => {
    const { withRetries } = await import('../room/publisher.js');
    const { SignalChannelError } = await import('../signal/signal-channel.js');
    let calls = 0;
    await expect(withRetries(3, async () => {
      calls++;
      throw new SignalChannelError('slow', 'timeout');
    })).rejects.toThrow('slow');
    expect(calls).toBe(4);
    calls = 0;
    await expect(withRetries(3, async () => {
      calls++;
      if (calls < 3) throw new SignalChannelError('slow', 'timeout');
      return 'ok';
    })).resolves.toBe('ok');
    calls = 0;
    await expect(withRetries(3, async () => {
      calls++;
      throw new Error('refused');
    })).rejects.toThrow('refused');
    expect(calls).toBe(1);
  });
});
