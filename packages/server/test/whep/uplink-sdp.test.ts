import { describe, expect, it } from 'vitest';
import { toClientAnswer, toUplinkOffer } from '../../src/whep/uplink-sdp.js';

const transport = ['a=ice-ufrag:abcd', 'a=ice-pwd:0123456789abcdef01234567', 'a=fingerprint:sha-256 AA:BB', 'a=setup:actpass'];
const section = (kind: 'audio' | 'video', mid: string, extra: string[] = []) => [
  `m=${kind} 9 UDP/TLS/RTP/SAVPF ${kind === 'audio' ? 111 : 96}`, 'c=IN IP4 0.0.0.0', ...transport, `a=mid:${mid}`, 'a=sendonly',
  'a=rtcp-mux', kind === 'audio' ? 'a=rtpmap:111 opus/48000/2' : 'a=rtpmap:96 H264/90000', 'a=ssrc:1234 cname:x', ...extra,
];
const sdp = (mids: string[], sections: string[][]) => ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', `a=group:BUNDLE ${mids.join(' ')}`, ...sections.flat()].join('\r\n') + '\r\n';
const mLines = (text: string) => text.split('\r\n').filter((l) => l.startsWith('m=') || l.startsWith('a=mid:') || l.startsWith('a=group:') || /^a=(inactive|sendonly)$/.test(l));

describe('WHIP offers as engine uplinks', () => {
  it('puts a video-first offer in slot order (audio, video) and adds trackless small and auxiliary video m-lines', () => {
    const { offer, plan } = toUplinkOffer(sdp(['video0', 'audio1'], [section('video', 'video0'), section('audio', 'audio1')]));
    expect(plan.clientMids).toEqual(['video0', 'audio1']);
    expect(mLines(offer)).toEqual([
      'a=group:BUNDLE audio1 video0 small aux',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:audio1', 'a=sendonly',
      'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:video0', 'a=sendonly',
      'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:small', 'a=sendonly',
      'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:aux', 'a=sendonly',
    ]);
    expect(offer.split('a=ssrc:').length - 1).toBe(2); // the placeholders send no track
  });

  it('gives the client its own m-lines back in its order, bundled, each with every candidate', () => {
    const cand = 'a=candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host';
    const answer = sdp(['audio1', 'video0', 'small', 'aux'], [section('audio', 'audio1', [cand]), section('video', 'video0'), section('video', 'small'), section('video', 'aux')]);
    const back = toClientAnswer(answer, { clientMids: ['video0', 'audio1'] });
    expect(mLines(back)).toEqual(['a=group:BUNDLE video0 audio1', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:video0', 'a=sendonly', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:audio1', 'a=sendonly']);
    expect(back.split(cand).length - 1).toBe(2);
  });

  it('takes a bundle-only m-line (port 0, as GStreamer offers the second one) as a live one', () => {
    const audio = section('audio', '1').map((l, i) => (i === 0 ? 'm=audio 0 UDP/TLS/RTP/SAVPF 111' : l));
    const { offer } = toUplinkOffer(sdp(['0', '1'], [section('video', '0'), [...audio, 'a=bundle-only']]));
    expect(offer).toMatch(/m=audio 9 /);
    expect(offer).not.toMatch(/bundle-only/);
  });

  it('fills a missing audio slot with a trackless opus m-line; refuses offers it cannot map', () => {
    const { offer } = toUplinkOffer(sdp(['0'], [section('video', '0')]));
    expect(mLines(offer).slice(1, 4)).toEqual(['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:audio', 'a=sendonly']);
    expect(offer).toMatch(/m=audio[^]*a=ice-ufrag:abcd[^]*m=video/);
    expect(() => toUplinkOffer(sdp(['0', '1'], [section('video', '0'), section('video', '1')]))).toThrow(/at most one audio and one video/);
    expect(() => toUplinkOffer('v=0\r\n')).toThrow(/media sections/);
  });
});
