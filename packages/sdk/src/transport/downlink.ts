import type { DownlinkMids } from '@conclave/protocol';
import { installDecodeTap } from '../playback/decode-tap.js';

/** The three m-lines of one subscription. */
export type DownlinkSlot = keyof DownlinkMids;

const SLOTS: readonly DownlinkSlot[] = ['audio', 'video', 'aux'];

/**
 * The client's one receive-only peer connection, whatever the number of remote users (docs/architecture.md "Media
 * path"). The server offers: each subscription occupies three m-lines (audio, main video, auxiliary
 * video) named by the mids the `subscribe` reply carries; an ended subscription's m-lines carry the
 * next one. Offers are applied one at a time, in order. Receiver tracks are never stopped here: a
 * reused m-line keeps its track for the next user.
 */
export class Downlink {
  private readonly _pc: RTCPeerConnection;
  private _queue: Promise<unknown> = Promise.resolve();
  /** Waits for m-lines (receivers): called after each applied offer, and with `closed` when the link closes. */
  private readonly _waiters = new Set<(closed?: boolean) => void>();

  /**
   * @param encoded with it, the connection exposes encoded frames (encodedInsertableStreams) and each
   * receiver is handed to `encoded` with its mid and slot when its track first arrives, which must pipe
   * it (SEI). M-lines come in groups of three in slot order, so a receiver's slot never changes.
   */
  constructor(iceServers: RTCIceServer[], iceTransportPolicy: RTCIceTransportPolicy, onTrack: () => void,
    encoded?: (mid: string, slot: DownlinkSlot, receiver: RTCRtpReceiver) => void) {
    this._pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require', ...(encoded ? { encodedInsertableStreams: true } : {}) });
    const piped = new WeakSet<RTCRtpReceiver>();
    this._pc.addEventListener('track', (event) => {
      const mid = event.transceiver.mid;
      if (encoded && mid !== null && !piped.has(event.receiver)) {
        piped.add(event.receiver);
        encoded(mid, SLOTS[this._pc.getTransceivers().indexOf(event.transceiver) % 3], event.receiver);
      }
      // The decoder fallback's tap must be in place before the first frame; not beside SEI's streams.
      if (!encoded && event.track.kind === 'video') installDecodeTap(event.receiver);
      onTrack();
    });
  }

  /**
   * Applies a server offer and returns the answer to send back at once: no waiting for ICE gathering,
   * the server learns this side's address from its connectivity checks (it answers peer-reflexive
   * candidates), so the link connects as soon as the checks meet.
   */
  answer(offerSdp: string): Promise<string> {
    const run = async () => {
      await this._pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      await this._pc.setLocalDescription(await this._pc.createAnswer());
      for (const wake of [...this._waiters]) wake();
      return this._pc.localDescription?.sdp ?? '';
    };
    const result = this._queue.then(run, run);
    this._queue = result.catch(() => undefined); // only orders the next run: the caller gets `result`
    return result;
  }

  /** The receivers of a subscription, once the offer carrying its mids was applied (bounded wait; rejects when the link closes). */
  async receivers(mids: DownlinkMids, timeoutMs: number): Promise<Record<DownlinkSlot, RTCRtpReceiver>> {
    const find = () => {
      const found: Partial<Record<DownlinkSlot, RTCRtpReceiver>> = {};
      for (const transceiver of this._pc.getTransceivers()) {
        for (const slot of SLOTS) if (transceiver.mid === mids[slot]) found[slot] = transceiver.receiver;
      }
      return SLOTS.every((slot) => found[slot]) ? found as Record<DownlinkSlot, RTCRtpReceiver> : undefined;
    };
    const now = find();
    if (now) return now;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this._waiters.delete(check);
        reject(new Error(`downlink m-lines ${mids.audio}/${mids.video}/${mids.aux} did not arrive`));
      }, timeoutMs);
      const check = (closed?: boolean) => {
        if (closed) {
          clearTimeout(timer);
          this._waiters.delete(check);
          reject(new Error('the downlink closed'));
          return;
        }
        const found = find();
        if (!found) return;
        clearTimeout(timer);
        this._waiters.delete(check);
        resolve(found);
      };
      this._waiters.add(check);
    });
  }

  get peerConnection(): RTCPeerConnection {
    return this._pc;
  }

  close(): void {
    for (const wait of [...this._waiters]) wait(true);
    this._pc.close();
  }
}

