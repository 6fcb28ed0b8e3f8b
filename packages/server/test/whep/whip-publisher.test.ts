import { FLAG } from '@conclave/protocol';
import { describe, expect, it } from 'vitest';
import { offerFlag } from '../../src/whep/whip-publisher.js';

const offer = (...sections: string[]) => ['v=0', 's=-', ...sections].join('\r\n');

describe('a WHIP offer\'s publish flag', () => {
  it('announces audio and video for the m-lines the client sends, bundle-only ones included', () => {
    expect(offerFlag(offer('m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=sendonly', 'm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=sendonly'))).toBe(FLAG.AUDIO | FLAG.VIDEO);
    expect(offerFlag(offer('m=video 9 UDP/TLS/RTP/SAVPF 96\r\na=sendonly', 'm=audio 0 UDP/TLS/RTP/SAVPF 111\r\na=bundle-only\r\na=sendonly'))).toBe(FLAG.AUDIO | FLAG.VIDEO);
    expect(offerFlag(offer('m=audio 0 UDP/TLS/RTP/SAVPF 111\r\na=sendonly', 'm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=recvonly'))).toBe(0);
  });
});
