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
  readonly #pc: RTCPeerConnection;
  readonly #channel: RTCDataChannel;
  readonly #queue: Uint8Array[] = [];

  constructor(iceServers: RTCIceServer[], iceTransportPolicy: RTCIceTransportPolicy, onMessage: (data: Uint8Array) => void) {
    this.#pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    this.#channel = this.#pc.createDataChannel(DATA_CHANNEL_LABEL, { ordered: true });
    this.#channel.binaryType = 'arraybuffer';
    this.#channel.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (event.data instanceof ArrayBuffer) onMessage(new Uint8Array(event.data));
    });
    this.#channel.addEventListener('open', () => {
      for (const data of this.#queue.splice(0)) this.#channel.send(data as Uint8Array<ArrayBuffer>);
    });
  }

  /** Negotiates with the server (the offer goes out without waiting for ICE gathering, as the uplink's). */
  async connect(negotiate: DataLinkNegotiator): Promise<void> {
    await this.#pc.setLocalDescription(await this.#pc.createOffer());
    const answer = await negotiate(this.#pc.localDescription?.sdp ?? '');
    await this.#pc.setRemoteDescription({ type: 'answer', sdp: answer });
  }

  /** True once the channel is open. */
  get open(): boolean {
    return this.#channel.readyState === 'open';
  }

  /** Sends (or queues while opening); false when the message had to be dropped. */
  send(data: Uint8Array): boolean {
    if (this.#channel.readyState === 'open') {
      this.#channel.send(data as Uint8Array<ArrayBuffer>);
      return true;
    }
    if (this.#channel.readyState !== 'connecting' || this.#queue.length >= MAX_QUEUED) return false;
    this.#queue.push(data);
    return true;
  }

  get peerConnection(): RTCPeerConnection {
    return this.#pc;
  }

  close(): void {
    this.#queue.length = 0;
    this.#pc.close();
  }
}
