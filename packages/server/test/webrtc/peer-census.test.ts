import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RTCPeerConnection } from 'werift';
import { describe, expect, it } from 'vitest';
import { PeerCensus } from '../../src/webrtc/peer-census.js';

/** V8's gc(), exposed at run time (the test needs a collection to see what is still held). */
function gc(): void {
  setFlagsFromString('--expose_gc');
  (runInNewContext('gc') as () => void)();
}

/** A peer connection counted by `census`, then closed; only a weak reference to it is kept (none in this frame). */
async function addAndClose(census: PeerCensus): Promise<WeakRef<RTCPeerConnection>> {
  const pc = new RTCPeerConnection({ iceServers: [] });
  census.add(pc);
  await pc.close();
  return new WeakRef(pc);
}

describe('peer census', () => {
  it('38.beyond a census nobody reads holds no closed peer connection (every one stayed until /metrics was scraped)', async () => {
    const census = new PeerCensus();
    const closed: WeakRef<RTCPeerConnection>[] = [];
    for (let i = 0; i < 5; i++) closed.push(await addAndClose(census));
    await new Promise((resolve) => setImmediate(resolve)); // werift completes a closed connection's events a turn after close()
    const open = new RTCPeerConnection({ iceServers: [] });
    census.add(open); // the next link made: the census is never read
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(closed.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(census.peerConnections).toBe(1);
    await open.close();
  });
});
