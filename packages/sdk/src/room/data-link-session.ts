import { log } from '../log/logger.js';
import type { SignalChannel } from '../signal/signal-channel.js';
import { DataLink } from '../transport/data-link.js';

/** What the room's data link needs from the session. */
export interface DataLinkHost {
  signal(): SignalChannel | undefined;
  joined(): boolean;
  iceServers(): RTCIceServer[];
  iceTransportPolicy(): RTCIceTransportPolicy;
  receive(data: Uint8Array): void;
}

/** Delay before a failed data link is opened again. */
const REOPEN_DELAY_MS = 1000;

/**
 * The room's data link for custom messages: opened after a join (also for an audience, who
 * receives), opened again when it fails while in the room; a signalling reconnection reopens it too.
 */
export class DataLinkSession {
  private readonly _host: DataLinkHost;
  private _link: DataLink | undefined;

  constructor(host: DataLinkHost) {
    this._host = host;
  }

  get link(): DataLink | undefined {
    return this._link;
  }

  /** True when there is no usable link (none, failed or closed). */
  get dead(): boolean {
    const state = this._link?.peerConnection.connectionState;
    return state === undefined || state === 'failed' || state === 'closed';
  }

  open(): void {
    const signal = this._host.signal();
    if (!signal) return;
    this._link?.close();
    const link = new DataLink(this._host.iceServers(), this._host.iceTransportPolicy(), (data) => this._host.receive(data));
    this._link = link;
    link.connect(async (offer) => (await signal.request('data-link', { sdp: offer })).sdp).catch((error: unknown) => {
      if (this._link === link) log.warn('data link failed; custom messages are unavailable:', error);
    });
    link.peerConnection.addEventListener('connectionstatechange', () => {
      if (link.peerConnection.connectionState !== 'failed' || this._link !== link) return;
      log.warn('data link failed; reopening');
      setTimeout(() => {
        if (this._link === link && this._host.joined() && this._host.signal()?.isOpen) this.open();
      }, REOPEN_DELAY_MS);
    });
  }

  close(): void {
    this._link?.close();
    this._link = undefined;
  }
}
