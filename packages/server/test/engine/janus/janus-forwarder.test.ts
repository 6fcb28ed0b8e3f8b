import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RTP_FORWARD_PAYLOAD_TYPE } from '../../../src/engine/media-engine.js';
import { publishAndSend, waitFor } from '../../support/engine-peers.js';
import { realJanus } from '../../support/janus-media.js';
import { forwarderIds, forwardStreams, JanusForward, randomSsrc, rtpForwardRequest, stopRtpForwardRequest, type ForwardedPublisher } from '../../../src/engine/janus/janus-forwarder.js';
import type { JanusPublisher } from '../../../src/engine/janus/janus-publisher.js';

const ssrcs = { video: 1111, audio: 2222 };
const publisher = (codecs: ForwardedPublisher['codecs'] = { audio: 'opus', video: 'h264', small: 'h264', aux: 'h264' }): ForwardedPublisher => ({
  room: 7, feedId: 42, mids: { audio: '0', video: '1', small: '2', aux: '3' }, codecs,
});

describe('Janus RTP forwarding requests', () => {
  it('forwards the audio and the main video with the job payload types and the forward\'s SSRCs', () => {
    const streams = forwardStreams(publisher(), { stream: 'main', videoPort: 5000, audioPort: 5002 }, ssrcs);
    expect(streams).toEqual([
      { mid: '1', host: '127.0.0.1', port: 5000, pt: RTP_FORWARD_PAYLOAD_TYPE.video, ssrc: 1111 },
      { mid: '0', host: '127.0.0.1', port: 5002, pt: RTP_FORWARD_PAYLOAD_TYPE.audio, ssrc: 2222 },
    ]);
    expect(rtpForwardRequest(publisher(), streams)).toEqual({ request: 'rtp_forward', room: 7, publisher_id: 42, host: '127.0.0.1', streams });
  });

  it('the auxiliary stream forwards the screen m-line; a stream without a port is not sent', () => {
    expect(forwardStreams(publisher(), { stream: 'aux', videoPort: 6000, host: '10.0.0.2' }, ssrcs))
      .toEqual([{ mid: '3', host: '10.0.0.2', port: 6000, pt: 96, ssrc: 1111 }]);
    expect(forwardStreams(publisher(), { stream: 'main', audioPort: 6002 }, ssrcs).map((s) => s.mid)).toEqual(['0']);
  });

  it('a VP8 publisher\'s video is not forwarded (jobs decode H264 only); its opus audio is', () => {
    const vp8 = publisher({ audio: 'opus', video: 'vp8', aux: 'vp8' });
    expect(forwardStreams(vp8, { stream: 'main', videoPort: 5000, audioPort: 5002 }, ssrcs).map((s) => s.pt)).toEqual([111]);
    expect(forwardStreams(vp8, { stream: 'aux', videoPort: 5000 }, ssrcs)).toEqual([]);
  });

  it('stop_rtp_forward names the room, the feed and the forwarder; reply ids are read from forwarders[]', () => {
    expect(stopRtpForwardRequest(publisher(), 99)).toEqual({ request: 'stop_rtp_forward', room: 7, publisher_id: 42, stream_id: 99 });
    expect(forwarderIds({ videoroom: 'rtp_forward', forwarders: [{ stream_id: 3, type: 'video' }, { stream_id: 4, type: 'audio' }, { type: 'data' }] })).toEqual([3, 4]);
    expect(forwarderIds({ videoroom: 'rtp_forward' })).toEqual([]);
  });

  it('SSRCs are never 0 (Janus would keep the publisher\'s own)', () => {
    expect(Array.from({ length: 1000 }, randomSsrc).every((ssrc) => ssrc > 0 && ssrc <= 0xffffffff)).toBe(true);
  });

  it('41 no silent catch: a feed Janus refuses to start is reported, not lost in the forward\'s queue', async () => {
    // Janus's refusal is what is under test, so its client is a stand-in that refuses every request.
    const refusing = {
      ...publisher(), handleId: 5, closed: false, requestKeyframe: () => undefined, whenUp: () => Promise.resolve(true),
      client: { closed: false, message: () => Promise.reject(new Error('Janus 436: no such feed')) },
    } as unknown as JanusPublisher;
    const started: string[] = [];
    const stopped: string[] = [];
    const forward = new JanusForward({ stream: 'main', videoPort: 5000, audioPort: 5002 }, () => undefined, (d) => stopped.push(d), (d) => started.push(d));
    forward.setPublisher(refusing);
    await waitFor(() => started.length > 0, 2000, 'the start failure reported');
    expect(started).toEqual(['rtp_forward to ports 5000/5002: Janus 436: no such feed']);
    expect(stopped).toEqual([]);
  });
});

/** Collects the RTP packets a media job's port receives. */
async function jobPort(): Promise<{ port: number; packets: { pt: number; ssrc: number; at: number }[]; close: () => void }> {
  const socket = createSocket('udp4');
  const packets: { pt: number; ssrc: number; at: number }[] = [];
  socket.on('message', (msg) => packets.push({ pt: msg[1] & 0x7f, ssrc: msg.readUInt32BE(8), at: Date.now() }));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, packets, close: () => socket.close() };
}

describe.skipIf(!existsSync('/usr/bin/janus'))('Janus RTP forwarding (real Janus)', () => {
  const janus = realJanus();

  /** A participant of the room with a feed to a job's two ports. */
  const jobFeed = async (participantId: string) => {
    janus.engine.joinRoom(participantId, 'room-fwd');
    const video = await jobPort();
    const audio = await jobPort();
    janus.cleanups.push(video.close, audio.close);
    const forward = janus.engine.forwardRtp(participantId, { stream: 'main', videoPort: video.port, audioPort: audio.port });
    return { video, audio, forward };
  };

  it('a feed set up before the participant publishes carries its audio and video with the job payload types and one SSRC per stream, across a republish; key frames are asked of the publisher; stop is idempotent', async () => {
    const { engine, cleanups } = janus;
    const { video, audio, forward } = await jobFeed('carol');

    const first = await publishAndSend(engine, 'carol');
    cleanups.push(first.stop);
    await waitFor(() => video.packets.length > 10 && audio.packets.length > 10, 15_000, 'forwarded packets');
    expect(new Set(video.packets.map((p) => p.pt))).toEqual(new Set([RTP_FORWARD_PAYLOAD_TYPE.video]));
    expect(new Set(audio.packets.map((p) => p.pt))).toEqual(new Set([RTP_FORWARD_PAYLOAD_TYPE.audio]));
    const ssrcs = { video: video.packets[0].ssrc, audio: audio.packets[0].ssrc };
    expect(new Set(video.packets.map((p) => p.ssrc)).size).toBe(1);
    expect(ssrcs.video).not.toBe(ssrcs.audio);

    // A key-frame request reaches the publisher as a PLI (VideoRoom publisher configure with keyframe: true).
    await waitFor(() => first.plis() > 0, 10_000, 'the PLI asked for when the forwarders start');
    const before = first.plis();
    forward.requestKeyframe();
    await waitFor(() => first.plis() > before, 10_000, 'a PLI after requestKeyframe');

    // Republish (a new uplink, a new publisher handle): packets flow again with the same SSRCs.
    await first.stop();
    const second = await publishAndSend(engine, 'carol');
    cleanups.push(second.stop);
    const mark = Date.now();
    await waitFor(() => video.packets.filter((p) => p.at > mark).length > 10 && audio.packets.filter((p) => p.at > mark).length > 10, 15_000, 'packets after republish');
    expect(new Set(video.packets.filter((p) => p.at > mark).map((p) => p.ssrc))).toEqual(new Set([ssrcs.video]));
    expect(new Set(audio.packets.filter((p) => p.at > mark).map((p) => p.ssrc))).toEqual(new Set([ssrcs.audio]));

    // Stopped (twice: idempotent) while the publisher still sends: the job's ports go quiet.
    forward.stop();
    forward.stop();
    const quiet = (packets: { at: number }[]) => Date.now() - (packets.at(-1)?.at ?? 0) > 1000;
    await waitFor(() => quiet(video.packets) && quiet(audio.packets), 5000, 'silence after stop');
  }, 60_000);

  it('a VP8 publisher\'s video is not forwarded (jobs decode H264 only); its audio is', async () => {
    const { engine, cleanups } = janus;
    const { video, audio, forward } = await jobFeed('dave');
    cleanups.push(() => forward.stop());
    const vp8 = await publishAndSend(engine, 'dave', 'VP8');
    cleanups.push(vp8.stop);
    await waitFor(() => audio.packets.length > 50, 15_000, 'forwarded audio');
    expect(video.packets).toHaveLength(0);
  }, 30_000);
});
