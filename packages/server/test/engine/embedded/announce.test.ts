import { describe, expect, it } from 'vitest';
import { janusMainConfig } from '../../../src/engine/janus/janus-config.js';
import { announceCandidates } from '../../../src/webrtc/peer-factory.js';

describe('CONCLAVE_ANNOUNCED_ADDRESS (1:1 NAT)', () => {
  it('embedded: IPv4 host candidates carry the public address, same port; other lines untouched', () => {
    const sdp = ['v=0', 'a=candidate:1 1 udp 2130706431 10.0.0.4 40001 typ host', 'a=candidate:2 1 udp 1694498815 198.51.100.9 40001 typ srflx raddr 10.0.0.4 rport 40001', 'a=mid:0'].join('\r\n');
    const out = announceCandidates(sdp, '203.0.113.7').split('\r\n');
    expect(out[1]).toBe('a=candidate:1 1 udp 2130706431 203.0.113.7 40001 typ host');
    expect(out[2]).toContain('198.51.100.9');
    expect(out[3]).toBe('a=mid:0');
  });

  it('janus: nat_1_1_mapping in the generated janus.jcfg', () => {
    const cfg = janusMainConfig({ dir: '/tmp/x', wsPort: 1, apiSecret: 'a', adminSecret: 'b', announcedAddress: '203.0.113.7' });
    expect(cfg).toContain('nat_1_1_mapping = "203.0.113.7"');
    expect(janusMainConfig({ dir: '/tmp/x', wsPort: 1, apiSecret: 'a', adminSecret: 'b' })).not.toContain('nat_1_1_mapping');
  });
});
