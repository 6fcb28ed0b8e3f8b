import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addLogSink, type LogEntry } from '../log/logger.js';
import { Uplink } from '../transport/uplink.js';

/** Senders whose setParameters the browser refuses (the peer connection is the only part faked). */
class FakeSender {
  track: unknown = null;
  async replaceTrack(track: unknown) { this.track = track; }
  getParameters() { return { encodings: [{}] }; }
  async setParameters() { throw new DOMException('refused', 'InvalidModificationError'); }
}
class FakePeerConnection {
  addTransceiver() { return { sender: new FakeSender() }; }
  close() { /* nothing */ }
}

describe('a refused setParameters is not swallowed', () => {
  const lines: LogEntry[] = [];
  let remove: () => void;
  beforeEach(() => {
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    vi.stubGlobal('RTCRtpSender', { getCapabilities: () => undefined });
    remove = addLogSink((entry) => lines.push(entry));
  });
  afterEach(() => {
    remove();
    vi.unstubAllGlobals();
  });

  it('a profile or bitrate change rejects; putting a track on a slot goes on and logs it', async () => {
    const uplink = new Uplink([]);
    await expect(uplink.setEncoding('video', { maxBitrateKbps: 500 })).rejects.toThrow('refused');
    await expect(uplink.setTrack('video', {} as MediaStreamTrack, { maxBitrateKbps: 500 })).resolves.toBeUndefined();
    expect(lines.some((line) => line.level === 3 && line.text.includes('video encoding parameters refused'))).toBe(true);
  });
});
