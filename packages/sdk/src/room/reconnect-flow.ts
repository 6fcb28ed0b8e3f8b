import { LIMITS, type PeerInfo } from '@conclave/protocol';
import type { StateMachine } from '../common/state-machine.js';
import type { Emitter } from '../common/emitter.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { operationFailed } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import type { EnterRoomConfig, TRTCEventTypes } from '../types.js';
import type { RoomTarget } from '../validate/enter-room.js';
import type { RoomAdaptation } from './adaptation-wiring.js';
import type { ConnectionStates } from './connection-state.js';
import type { DataLinkSession } from './data-link-session.js';
import type { Publisher } from './publisher.js';
import type { Reconnector } from './reconnector.js';
import type { RemoteUsers } from './remote-users.js';
import type { RoomState } from './room.js';

/** What the reconnection flow reads and drives in the room session. */
export interface ReconnectFlowHost {
  readonly machine: StateMachine<RoomState>;
  readonly events: Emitter<TRTCEventTypes>;
  readonly publisher: Publisher;
  readonly remotes: RemoteUsers;
  readonly dataLink: DataLinkSession;
  readonly adaptation: () => RoomAdaptation;
  readonly reconnector: () => Reconnector;
  config(): EnterRoomConfig | undefined;
  target(): RoomTarget | undefined;
  sessionToken(): string | undefined;
  signalOpen(): boolean;
  /** Closes and forgets the signalling channel. */
  dropSignal(): void;
  /** One join attempt (the room's, with its WRONG_NODE retry). */
  joinOnce(config: EnterRoomConfig, target: RoomTarget, useCache: boolean, resumeToken?: string): Promise<{ peers: PeerInfo[]; resumed: boolean }>;
  readonly connection: ConnectionStates;
  resetConnection(): void;
  teardown(): void;
}

/**
 * Getting back into the room (docs/behaviour.md §4): after the signalling channel is lost (reconnect with
 * back-off, resuming the session), after a media link failed (rebuild it through signalling), and the rejoin
 * when the relay may have failed or the server timed the user out.
 */
export class ReconnectFlow {
  private readonly _host: ReconnectFlowHost;

  constructor(host: ReconnectFlowHost) {
    this._host = host;
  }

  /** The signalling channel is gone while in the room: reconnect with back-off, resuming the session. */
  start(): void {
    const reconnector = this._host.reconnector();
    if (this._host.machine.state !== 'joined' || reconnector.running) return;
    this._host.dropSignal();
    this._host.connection.lost();
    reconnector.start();
  }

  /**
   * One reconnection attempt: the first, and one started by the server answering a probe, may use the cached
   * schedule; the session is resumed when the server still has it.
   */
  async once(attempt: number, serverAnswered = false): Promise<void> {
    const config = this._host.config();
    const target = this._host.target();
    if (!config || !target) return;
    this._host.connection.attempt();
    const { peers, resumed } = await this._host.joinOnce(config, target, attempt === 1 || serverAnswered, this._host.sessionToken());
    if (this._host.machine.state !== 'joined') return;
    this._host.connection.set('CONNECTED');
    log.info(resumed ? 'session resumed' : 'rejoined with a new session');
    await this._afterReconnect(peers, resumed);
  }

  /**
   * Brings media back after the signalling channel returned. A resumed session kept its server-side
   * links, so only failed peer connections are rebuilt; a new session rebuilds everything. Users
   * missing from the new list get a grace period to come back before remote-user-exit.
   */
  private async _afterReconnect(peers: PeerInfo[], resumed: boolean): Promise<void> {
    const { publisher, remotes, dataLink } = this._host;
    if (!resumed || this._linkDead(publisher.peerConnection)) publisher.closeUplink();
    remotes.reconcile(peers, !resumed, LIMITS.SESSION_GRACE_MS);
    if (!resumed || dataLink.dead) dataLink.open();
    await publisher.publishPending();
  }

  private _linkDead(pc: RTCPeerConnection | undefined): boolean {
    return !pc || pc.connectionState === 'failed' || pc.connectionState === 'closed';
  }

  /** Rebuilds a failed media link through signalling. */
  rebuildLink(kind: 'uplink' | 'downlink'): void {
    const report = (error: unknown) => this._host.events.emit('error', operationFailed(undefined, 'uplink or downlink reconnection failed', undefined, error));
    if (kind === 'uplink') {
      this._host.publisher.closeUplink();
      this._host.publisher.publishPending().catch(report);
    } else {
      this._host.remotes.rebuildDownlink();
    }
  }

  /** Rebuilds every link with the current transport policy (relay switching). */
  rebuildAll(): void {
    if (this._host.machine.state !== 'joined' || !this._host.signalOpen()) return;
    this.rebuildLink('uplink');
    this.rebuildLink('downlink');
    this._host.dataLink.open();
  }

  /** Rejoins (relay failure, user_time_out); a failure is the error event 'rejoin room failed'. */
  rejoinReporting(): void {
    this._rejoin().catch((error: unknown) => {
      this._host.events.emit('error', operationFailed(EXTRA_CODE.REJOIN_FAILED, 'rejoin room failed', undefined, error));
    });
  }

  /** Joins again with the same settings, then republishes; remote streams resubscribe as flags arrive. */
  private async _rejoin(): Promise<void> {
    const { machine, remotes, dataLink, publisher } = this._host;
    const config = this._host.config();
    const target = this._host.target();
    if (!config || !target || machine.state !== 'joined') return;
    remotes.leaveAll();
    this._host.resetConnection();
    machine.set('joining');
    this._host.connection.set('CONNECTING', true);
    let peers: PeerInfo[];
    try {
      ({ peers } = await this._host.joinOnce(config, target, false));
    } catch (error) {
      this._host.teardown();
      machine.set('left');
      this._host.connection.set('DISCONNECTED');
      throw error;
    }
    machine.set('joined');
    this._host.connection.set('CONNECTED');
    remotes.addPeers(peers); // once joined, so listeners may call startRemoteVideo
    dataLink.open();
    this._host.adaptation().start();
    await publisher.publishPending();
  }
}
