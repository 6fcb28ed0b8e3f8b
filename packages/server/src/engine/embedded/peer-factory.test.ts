import { describe, expect, it } from 'vitest';
import { keepCandidatesOn } from './peer-factory.js';

describe('keepCandidatesOn', () => {
  it('keeps only the candidates on the configured address, and every other line', () => {
    const sdp = [
      'v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=candidate:1 1 udp 2130706431 192.0.2.2 50000 typ host',
      'a=candidate:2 1 udp 2130706431 127.0.0.1 50001 typ host',
      'a=mid:0', '',
    ].join('\r\n');
    expect(keepCandidatesOn(sdp, '127.0.0.1')).toBe([
      'v=0', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=candidate:2 1 udp 2130706431 127.0.0.1 50001 typ host', 'a=mid:0', '',
    ].join('\r\n'));
  });
});
