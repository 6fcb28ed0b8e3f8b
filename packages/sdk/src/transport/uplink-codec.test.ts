import { describe, expect, it } from 'vitest';
import { answerWithH264Profile, h264ProfileOf, HW_H264_PROFILE } from './hw-encoder.js';
import { HW_ENCODE_MIN_PIXELS, orderVideoCodecs, SW_H264_PROFILE } from './uplink-codec.js';

/** A server answer: audio, then three video m-lines negotiated on H264 payload 108 (42e01f) with VP8 96 beside it. */
const video = (pt: number, profile: string) => [
  `m=video 9 UDP/TLS/RTP/SAVPF ${pt} 96`, `a=rtpmap:${pt} H264/90000`,
  `a=fmtp:${pt} level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=${profile};x-google-start-bitrate=1500`,
  'a=rtpmap:96 VP8/90000', 'a=rtpmap:97 rtx/90000', 'a=fmtp:97 apt=96',
];
const ANSWER = ['v=0', 'o=- 1 1 IN IP4 0.0.0.0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2',
  ...video(108, '42e01f'), ...video(108, '42e01f'), ...video(108, '42e01f'), ''].join('\r\n');

describe('the payload a video m-line sends (hardware 42001f or the default 42e01f)', () => {
  it('offers H264 packetization-mode 1 with the default profile 42e01f first, then other H264, then VP8', () => {
    const codecs = [
      { mimeType: 'video/VP8' },
      { mimeType: 'video/H264', sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f' },
      { mimeType: 'video/H264', sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f' },
      { mimeType: 'video/H264', sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f' },
      { mimeType: 'video/AV1' },
    ];
    expect(orderVideoCodecs(codecs).map((c) => `${c.mimeType} ${c.sdpFmtpLine ?? ''}`)).toEqual([
      'video/H264 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
      'video/H264 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
      'video/H264 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f',
      'video/VP8 ',
      'video/AV1 ',
    ]);
  });

  it('with preferHW the camera m-line (index 1) sends the hardware profile 42001f on the server\'s payload type; the others keep 42e01f', () => {
    const sdp = answerWithH264Profile(ANSWER, new Set([1]), HW_H264_PROFILE);
    expect(h264ProfileOf(sdp, 1)).toBe('42001f');
    expect(h264ProfileOf(sdp, 2)).toBe('42e01f');
    expect(h264ProfileOf(sdp, 3)).toBe('42e01f');
    // Only the profile changes: payload type, other parameters, VP8 and RTX lines stay.
    expect(sdp.replace('profile-level-id=42001f', 'profile-level-id=42e01f')).toBe(ANSWER);
    // The screen (aux, index 3) too.
    expect(h264ProfileOf(answerWithH264Profile(ANSWER, new Set([1, 3]), HW_H264_PROFILE), 3)).toBe('42001f');
  });

  it('the software encoder is the server\'s answer as negotiated (42e01f); a VP8-only m-line is left alone', () => {
    expect(answerWithH264Profile(ANSWER, new Set(), HW_H264_PROFILE)).toBe(ANSWER);
    expect(h264ProfileOf(ANSWER, 1)).toBe(SW_H264_PROFILE);
    const vp8 = ['v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 VP8/90000', ''].join('\r\n');
    expect(answerWithH264Profile(vp8, new Set([1]), HW_H264_PROFILE)).toBe(vp8);
    expect(h264ProfileOf(vp8, 1)).toBeUndefined();
  });

  it('hardware encode is preferred from 921,600 pixels (1280×720, docs/behaviour.md §9)', () => {
    expect(HW_ENCODE_MIN_PIXELS).toBe(1280 * 720);
  });
});
