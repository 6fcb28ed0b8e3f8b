import { createSocket } from 'node:dgram';
import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import type { JobManager } from '../../src/jobs/job-manager.js';
import type { MediaJob } from '../../src/jobs/media-job.js';
import { MixStreams } from '../../src/whep/mix-streams.js';

/** The part of JobManager MixStreams uses: job-end listeners. */
function fakeJobs(): { jobs: JobManager; end(job: MediaJob): void } {
  const listeners: ((job: MediaJob) => void)[] = [];
  return {
    jobs: { onJobEnd: (listener: (job: MediaJob) => void) => listeners.push(listener) } as unknown as JobManager,
    end: (job) => listeners.forEach((listener) => listener(job)),
  };
}

const room = { roomId: '5105', isString: false };

describe('MixStreams (CDN mixes played over WHEP by streamId)', () => {
  it('a streamId is one running mix\'s per app; the mix job\'s end closes its source', async () => {
    const { jobs, end } = fakeJobs();
    const streams = new MixStreams({ iceAddress: '127.0.0.1' }, jobs);
    const stream = await streams.open(1400000001, 'mix', room);
    expect(stream.videoPort).toBeGreaterThan(0);
    expect(stream.audioPort).not.toBe(stream.videoPort);
    await expect(streams.open(1400000001, 'mix', room)).rejects.toThrow(/another mix/);
    const other = await streams.open(1400000002, 'mix', room); // another app: its own streamIds
    expect(streams.find(1400000001, 'mix')).toBe(stream);
    const keyframes: number[] = [];
    const job = { id: 'job-1', state: 'running', requestOutputKeyframe: () => keyframes.push(Date.now()) } as unknown as MediaJob;
    stream.bindJob(job);
    end(job);
    expect(streams.find(1400000001, 'mix')).toBeUndefined();
    await expect(stream.answer('viewer', 'v=0\r\n', () => undefined)).rejects.toThrow(/ended/);
    expect(streams.size).toBe(1);
    streams.close();
    expect(streams.find(1400000002, 'mix')).toBeUndefined();
    expect(other.players).toBe(0);
  });

  it('a player\'s key-frame request reaches the mix job once its video flows', async () => {
    const { jobs } = fakeJobs();
    const streams = new MixStreams({ iceAddress: '127.0.0.1' }, jobs);
    const stream = await streams.open(1400000001, 'kf', room);
    const keyframes: number[] = [];
    stream.bindJob({ id: 'job-2', state: 'running', requestOutputKeyframe: () => keyframes.push(Date.now()) } as unknown as MediaJob);
    // The job's first video packet arrives, then a player links (a werift offer stands for the browser's): the
    // link asks its source for a key frame, which the source turns into the job's key-frame command.
    const socket = createSocket('udp4');
    const packet = new RtpPacket(new RtpHeader({ payloadType: 96, sequenceNumber: 1, timestamp: 3000, ssrc: 1234, marker: true }), Buffer.from([0x41, 0x9a, 0x00]));
    await new Promise<void>((resolve) => socket.send(packet.serialize(), stream.videoPort, '127.0.0.1', () => resolve()));
    const offer = await browserlessOffer();
    await stream.answer('viewer', offer, () => undefined);
    await expect.poll(() => keyframes.length, { timeout: 2000 }).toBeGreaterThan(0);
    expect(stream.players).toBe(1);
    stream.end('viewer');
    expect(stream.players).toBe(0);
    socket.close();
    streams.close();
  });
});

/** A receive-only audio + video offer from a werift peer (what a WHEP player sends). */
async function browserlessOffer(): Promise<string> {
  const { RTCPeerConnection } = await import('werift');
  const pc = new RTCPeerConnection({ iceInterfaceAddresses: { udp4: '127.0.0.1' }, iceAdditionalHostAddresses: ['127.0.0.1'] });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription!.sdp;
  await pc.close();
  return sdp;
}
