import { LIMITS, SERVER_CODE, type PeerInfo } from '@conclave/protocol';
import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import { log } from '../log/logger.js';
import type { Schedule } from '../schedule/schedule.js';
import { Scheduler } from '../schedule/scheduler.js';
import { SignalChannel, SignalReplyError } from '../signal/signal-channel.js';
import { requestJoinAdmitted } from '../signal/join-admission.js';
import { setDecodeTap } from '../playback/decode-tap.js';
import type { EnterRoomConfig } from '../types.js';
import { resolveProxy, type ResolvedProxy, type RoomTarget } from '../validate/enter-room.js';
import { joinRequest } from './join-request.js';
import type { Preconnection, PreconnectIdentity } from './preconnect.js';

export const SDK_VERSION = '5.10.1';

/** What a join attempt reads from its room session and hands back to it. */
export interface JoinSession {
  /** What callExperimentalAPI('preconnect') warmed for the next join. */
  readonly preconnection: Preconnection;
  proxy(): ResolvedProxy;
  role(): 'anchor' | 'audience';
  scene(): 'rtc' | 'live';
  /** The schedule the attempt goes by (kept for ICE servers, reconnection probes and server settings). */
  scheduled(schedule: Schedule): void;
  /** The channel the attempt joins on: the session's channel from now on, listened to before it connects. */
  attach(signal: SignalChannel): void;
  /** Closes and forgets the session's channel (a join elsewhere follows). */
  dropSignal(): void;
  /** The server admitted the join: the session's token and the room's audience count. */
  joined(sessionToken: string, audienceCount: number | undefined, clientIp?: string): void;
}

/** What a join attempt ends with: the users already in the room and whether the earlier session was resumed. */
export interface JoinResult {
  peers: PeerInfo[];
  resumed: boolean;
}

/**
 * The join attempts of a room session (docs/behaviour.md §4): schedule (or take what preconnect warmed), open the
 * signalling channel and send the join within the join time-out. Room decides when to attempt and what a failure
 * means; this carries one attempt out.
 */
export class JoinAttempts {
  private readonly _scheduler = new Scheduler();
  private readonly _session: JoinSession;

  constructor(session: JoinSession) {
    this._session = session;
  }

  /** preconnect: schedules (for `room`, else a placeholder room) and opens the signalling socket ahead of enterRoom. */
  preconnect(identity: PreconnectIdentity, room: RoomTarget, proxy: EnterRoomConfig['proxy']): Promise<void> {
    const resolved = resolveProxy(proxy);
    return this._session.preconnection.warm(identity, () => this._scheduler.get(resolved.scheduleBase ?? DEFAULT_SERVER_ORIGIN, {
      ...identity, roomId: room.roomId, isStringRoomId: room.isString, sdkVersion: SDK_VERSION,
    }, false), (schedule) => resolved.websocketUrl ?? schedule.domains.main);
  }

  /**
   * One join attempt. A cluster node that does not host the room refuses with WRONG_NODE: schedule afresh and
   * join there, once.
   */
  async once(config: EnterRoomConfig, target: RoomTarget, useCache: boolean, resumeToken?: string): Promise<JoinResult> {
    try {
      return await this._joinAt(config, target, useCache, resumeToken);
    } catch (error) {
      if (!(error instanceof SignalReplyError && error.code === SERVER_CODE.WRONG_NODE)) throw error;
      log.info('this room lives on another node: scheduling again');
      this._session.dropSignal();
      return this._joinAt(config, target, false, resumeToken);
    }
  }

  /** Base URL of scheduling: the proxy's, else the SDK's own server. */
  private _scheduleBase(): string {
    return this._session.proxy().scheduleBase ?? DEFAULT_SERVER_ORIGIN;
  }

  private _getSchedule(config: EnterRoomConfig, target: RoomTarget, useCache: boolean): Promise<Schedule> {
    const scene = this._session.scene();
    return this._scheduler.get(this._scheduleBase(), {
      sdkAppId: config.sdkAppId, userId: config.userId, userSig: config.userSig,
      roomId: target.roomId, isStringRoomId: target.isString, sdkVersion: SDK_VERSION,
      ...(scene === 'live' ? { role: this._session.role() } : {}),
    }, useCache);
  }

  private async _joinAt(config: EnterRoomConfig, target: RoomTarget, useCache: boolean, resumeToken?: string): Promise<JoinResult> {
    const session = this._session;
    // A first attempt may join on what preconnect warmed (same identity, socket still open).
    const warm = useCache && !resumeToken ? await session.preconnection.take(config) : undefined;
    const schedule = warm?.schedule ?? await this._getSchedule(config, target, useCache);
    session.scheduled(schedule);
    setDecodeTap(schedule.config.videoDecodeFallback === true);
    const signal = warm?.signal ?? new SignalChannel(session.proxy().websocketUrl ?? schedule.domains.main);
    session.attach(signal);
    if (!warm) await signal.connect();
    const seconds = schedule.config.enterRoomTimeout ?? 0;
    const timeoutMs = seconds >= 1 ? seconds * 1000 : LIMITS.JOIN_TIMEOUT_MS;
    // The request's own time-out is the join time-out (a busy server's waits included); joinError() maps it to 'join room timeout'.
    const reply = await requestJoinAdmitted(signal, joinRequest(config, target, { role: session.role(), scene: session.scene(), version: SDK_VERSION, resumeToken }), timeoutMs);
    session.joined(reply.sessionToken, reply.audienceCount, reply.clientIp);
    return { peers: reply.userList, resumed: reply.resumed };
  }
}
