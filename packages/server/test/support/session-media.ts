import { FLAG } from '@conclave/protocol';
import type { sessionClient } from './session-client.js';
import { sendPackets, uplink } from './engine-peers.js';

/**
 * Publishes real media from a signalling session (a werift uplink through its `publish` command, a packet per 20 ms
 * of audio and video), then sets its flags (audio and video unless `flag` says). Resolves to the stop.
 */
export async function publishMedia(client: ReturnType<typeof sessionClient>, flag = FLAG.AUDIO | FLAG.VIDEO): Promise<() => Promise<void>> {
  const up = await uplink('H264');
  const reply = await client.send('publish', { sdp: up.offer });
  if (reply.code !== 0) throw new Error(`publish failed: ${reply.code} ${reply.message}`);
  await up.pc.setRemoteDescription({ type: 'answer', sdp: (reply.data as { sdp: string }).sdp });
  const stopSending = sendPackets(up);
  const flagged = await client.send('mute-flag', { flag });
  if (flagged.code !== 0) throw new Error(`mute-flag failed: ${flagged.code} ${flagged.message}`);
  return async () => {
    stopSending();
    await up.pc.close();
  };
}

