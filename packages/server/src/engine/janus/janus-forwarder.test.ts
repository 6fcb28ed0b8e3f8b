import { describe, expect, it } from 'vitest';
import { RTP_FORWARD_PAYLOAD_TYPE } from '../media-engine.js';
import { forwarderIds, forwardStreams, randomSsrc, rtpForwardRequest, stopRtpForwardRequest, type ForwardedPublisher } from './janus-forwarder.js';

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
});
