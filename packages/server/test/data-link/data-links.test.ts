import { DATA_CHANNEL_LABEL } from '@conclave/protocol';
import { RTCPeerConnection } from 'werift';
import { describe, expect, it } from 'vitest';
import { PeerCensus } from '../../src/webrtc/peer-census.js';
import { EngineError } from '../../src/engine/media-engine.js';
import { DataLinks } from '../../src/data-link/data-links.js';

async function offer(): Promise<{ pc: RTCPeerConnection; sdp: string }> {
  const pc = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false, iceInterfaceAddresses: { udp4: '127.0.0.1' }, iceAdditionalHostAddresses: ['127.0.0.1'] });
  pc.createDataChannel(DATA_CHANNEL_LABEL, { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, sdp: pc.localDescription!.sdp };
}

describe('DataLinks (real werift peers)', () => {
  it('a link closed while its offer is answered is closed once made, and its open rejects (not-joined)', async () => {
    const census = new PeerCensus();
    const links = new DataLinks({ iceAddress: '127.0.0.1', census });
    const client = await offer();
    const opening = links.open('alice', client.sdp, () => undefined);
    links.close('alice'); // the user left meanwhile
    const error = await opening.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).reason).toBe('not-joined');
    expect(links.send('alice', new Uint8Array([1]))).toBe(false);
    await expect.poll(() => census.peerConnections, { timeout: 5000, interval: 50 }).toBe(0);
    await client.pc.close();
  }, 20_000);

  it('of two offers at once the newer one is kept, whichever is answered last', async () => {
    const census = new PeerCensus();
    const links = new DataLinks({ iceAddress: '127.0.0.1', census });
    const [older, newer] = await Promise.all([offer(), offer()]);
    const first = links.open('bob', older.sdp, () => undefined).then(() => 'kept', () => 'closed');
    const second = links.open('bob', newer.sdp, () => undefined).then(() => 'kept', () => 'closed');
    expect(await Promise.all([first, second])).toEqual(['closed', 'kept']);
    await expect.poll(() => census.peerConnections, { timeout: 5000, interval: 50 }).toBe(1);
    links.closeAll();
    await expect.poll(() => census.peerConnections, { timeout: 5000, interval: 50 }).toBe(0);
    await Promise.all([older.pc.close(), newer.pc.close()]);
  }, 20_000);
});
