import { RtpHeader, RtpPacket } from 'werift';

/* H264 RTP packets for the key-frame tests (payloads as Chromium packetizes them, mode 1). */

export const H264 = 'video/H264';
let seq = 100;

/** An H264 (or VP8) RTP packet with payload `nal`. */
export const packet = (timestamp: number, nal: number[], marker = false): RtpPacket =>
  new RtpPacket(new RtpHeader({ sequenceNumber: seq++, timestamp, marker, payloadType: 102 }), Buffer.from(nal));

/** STAP-A (24) with SPS (7) and PPS (8). */
export const stapSpsPps = [0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce];
/** FU-A (28) start / middle / end of an IDR slice (5). */
export const fuIdr = (start: boolean, end = false): number[] => [0x7c, (start ? 0x80 : 0) | (end ? 0x40 : 0) | 5, 0x88, 0x84];
/** A non-IDR slice (1). */
export const delta = [0x41, 0x9a, 0x02];

/** A whole key frame at `ts`: SPS/PPS, then the IDR slice in three fragments. */
export const keyframe = (ts: number): RtpPacket[] =>
  [packet(ts, stapSpsPps), packet(ts, fuIdr(true)), packet(ts, fuIdr(false)), packet(ts, fuIdr(false, true), true)];
