import { DATA_CHANNEL_LABEL } from '@conclave/protocol';
import { audioCodecs, closePeer, createPeer, headerExtensions, localSdp, videoCodecs, type PeerNetworkOptions, type RTCDataChannel, type RTCPeerConnection } from '../webrtc/index.js';

/** Most bytes queued on a data channel before further messages to that client are dropped (a stalled reader). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * A client's data link: a small peer connection carrying one data channel (the client creates it and
 * offers). Binary messages in both directions; the engine does not look inside them.
 */
export class DataLink {
  readonly #pc: RTCPeerConnection;
  #channel: RTCDataChannel | undefined;
  #closed = false;

  private constructor(pc: RTCPeerConnection) {
    this.#pc = pc;
  }

  /** Answers the client's offer; `onData` receives every binary message the client sends. */
  static async negotiate(net: PeerNetworkOptions, offerSdp: string, onData: (data: Uint8Array) => void): Promise<{ link: DataLink; answer: string }> {
    const pc = createPeer(net, videoCodecs(), audioCodecs(), headerExtensions());
    const link = new DataLink(pc);
    pc.onDataChannel.subscribe((channel) => {
      if (channel.label !== DATA_CHANNEL_LABEL || link.#closed) return;
      link.#channel = channel;
      channel.onMessage.subscribe((message) => {
        if (typeof message !== 'string') onData(new Uint8Array(message.buffer, message.byteOffset, message.byteLength));
      });
    });
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      await pc.setLocalDescription(await pc.createAnswer());
      return { link, answer: localSdp(pc, net) };
    } catch (error) {
      link.close();
      throw error;
    }
  }

  /** Sends a binary message; false when the channel is not open or too far behind. */
  send(data: Uint8Array): boolean {
    const channel = this.#channel;
    if (!channel || channel.readyState !== 'open' || channel.bufferedAmount > MAX_BUFFERED_BYTES) return false;
    try {
      channel.send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      return true;
    } catch {
      return false; // the channel closed since the check: not sent, like a message to a full channel (unreliable by design)
    }
  }

  close(): void {
    this.#closed = true;
    closePeer(this.#pc);
  }
}
