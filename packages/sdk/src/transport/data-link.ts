import { DATA_CHANNEL_LABEL } from '@conclave/protocol';

/** Sends the offer to the server and returns its answer. */
export type DataLinkNegotiator = (offerSdp: string) => Promise<string>;

/** Messages kept while the channel is opening; later ones are dropped. */
const MAX_QUEUED = 256;

/**
 * The client's data link: a small peer connection with one ordered, reliable data channel carrying
 * custom messages to and from the server. Created at join, also for an audience (it receives too).
 */
export class DataLink {
  private readonly _pc: RTCPeerConnection;
  private readonly _channel: RTCDataChannel;
  private readonly _queue: Uint8Array[] = [];

  constructor(iceServers: RTCIceServer[], iceTransportPolicy: RTCIceTransportPolicy, onMessage: (data: Uint8Array) => void) {
    this._pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    this._channel = this._pc.createDataChannel(DATA_CHANNEL_LABEL, { ordered: true });
    this._channel.binaryType = 'arraybuffer';
    this._channel.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (event.data instanceof ArrayBuffer) onMessage(new Uint8Array(event.data));
    });
    this._channel.addEventListener('open', () => {
      for (const data of this._queue.splice(0)) this._channel.send(data as Uint8Array<ArrayBuffer>);
    });
  }

  /** Negotiates with the server (the offer goes out without waiting for ICE gathering, as the uplink's). */
  async connect(negotiate: DataLinkNegotiator): Promise<void> {
    await this._pc.setLocalDescription(await this._pc.createOffer());
    const answer = await negotiate(this._pc.localDescription?.sdp ?? '');
    await this._pc.setRemoteDescription({ type: 'answer', sdp: answer });
  }

  /** True once the channel is open. */
  get open(): boolean {
    return this._channel.readyState === 'open';
  }

  /** Sends (or queues while opening); false when the message had to be dropped. */
  send(data: Uint8Array): boolean {
    if (this._channel.readyState === 'open') {
      this._channel.send(data as Uint8Array<ArrayBuffer>);
      return true;
    }
    if (this._channel.readyState !== 'connecting' || this._queue.length >= MAX_QUEUED) return false;
    this._queue.push(data);
    return true;
  }

  get peerConnection(): RTCPeerConnection {
    return this._pc;
  }

  close(): void {
    this._queue.length = 0;
    this._pc.close();
  }
}
