import { EXTRA_CODE } from '../constants/error-code.js';
import { operationFailed } from '../errors/catalogue.js';
import type { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import type { RemoteUser } from './remote-user.js';

/** Peer-connection connecting time-out (docs/behaviour.md §9). */
const PC_CONNECT_TIMEOUT_MS = 10_000;
/** Connection time-outs with signalling up that indicate a firewall (docs/behaviour.md §8). */
const FIREWALL_TIMEOUTS = 3;
/** More media reconnections than this and the relay may have failed: rejoin (docs/behaviour.md §4). */
const MAX_MEDIA_RECONNECTIONS = 6;

/** What the link watcher acts on. */
export interface LinkWatcherHost {
  joined(): boolean;
  signalOpen(): boolean;
  emitError(error: RtcError): void;
  /** Rebuilds a failed link through signalling. */
  rebuild(kind: 'uplink' | 'downlink', user?: RemoteUser): void;
  /** Too many media reconnections: joins the room again. */
  rejoin(): void;
  /** A link failed: true when relay was forced and is switched back instead of a rebuild (docs/behaviour.md §4). */
  relayFailed?(): boolean;
}

/**
 * Watches media peer connections (docs/behaviour.md §4, §8): 'failed' rebuilds the link; a link that does not
 * connect within 10 s counts as a time-out, and three time-outs with signalling up mean a firewall
 * (5501); more than 6 media reconnections in a row mean the relay may have failed: rejoin.
 */
export class LinkWatcher {
  private readonly _host: LinkWatcherHost;
  private _mediaReconnections = 0;
  private _connectTimeouts = 0;

  constructor(host: LinkWatcherHost) {
    this._host = host;
  }

  watch(pc: RTCPeerConnection, kind: 'uplink' | 'downlink', user?: RemoteUser): void {
    const timer = setTimeout(() => {
      if (pc.connectionState === 'connected' || pc.connectionState === 'closed' || !this._host.signalOpen()) return;
      this._connectTimeouts++;
      if (this._connectTimeouts === FIREWALL_TIMEOUTS) {
        this._host.emitError(operationFailed(EXTRA_CODE.FIREWALL_RESTRICTION, 'media connection timed out three times with signalling up: a firewall may block it, try another network'));
      }
      this._failed(kind, user);
    }, PC_CONNECT_TIMEOUT_MS);
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') {
        clearTimeout(timer);
        this._mediaReconnections = 0;
      } else if (pc.connectionState === 'failed') {
        clearTimeout(timer);
        log.warn(`${kind} failed; rebuilding`);
        this._failed(kind, user);
      } else if (pc.connectionState === 'closed') {
        clearTimeout(timer);
      }
    });
  }

  private _failed(kind: 'uplink' | 'downlink', user?: RemoteUser): void {
    if (!this._host.joined()) return;
    if (this._host.relayFailed?.()) return;
    this._mediaReconnections++;
    if (this._mediaReconnections > MAX_MEDIA_RECONNECTIONS) {
      this._mediaReconnections = 0;
      this._host.rejoin();
      return;
    }
    if (!this._host.signalOpen()) return; // the signalling reconnection rebuilds it
    this._host.rebuild(kind, user);
  }
}
