import { SERVER_CODE, TRANSCRIBER_CODE, TRANSCRIBER_LIMITS, type TranscriberMessage, type TranscriberStartData, type TranscriberStartReply } from '@conclave/protocol';
import { PRIVILEGE, hasPrivilege } from '@conclave/usersig';
import type { Logger } from 'pino';
import type { LimitsConfig } from '../config/config.js';
import type { MediaEngine } from '../engine/media-engine.js';
import type { Room, RoomRegistry } from '../room/room.js';
import type { Recognizer } from './recognizer.js';
import { Transcriber, type TranscriberInfo } from './transcriber.js';

/** How often robots are matched against their rooms (users publishing, leaving, rejoining). */
const TICK_MS = 500;

/** A refusal of a transcriber request: its TRANSCRIBER_CODE and message (signalling turns it into the reply). */
export class TranscriberError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** The robots' figures for /metrics: running robots by recognizer, and totals since the server started. */
export interface TranscribersSnapshot {
  /** Running robots by recognizer engine (its name: pocketsphinx, or the configured command's). */
  robots: Record<string, number>;
  /** Audio fed to the recognizers, seconds, ended robots included. */
  audioSeconds: number;
  /** Recognizer or decoder failures, ended robots included. */
  failures: number;
  /** Starts refused by a quota so far, by quota (limits.transcribersPerApp, limits.transcribersPerNode). */
  quotaRefusals: { app: number; node: number };
}

/** Who starts a robot: its user and its privileges (what it may hear is what the robot transcribes). */
export interface RobotOwner {
  userId: string;
  privileges: number;
}

/** A sentence goes to the room's users who may receive audio: it is what was said (docs/behaviour.md §3.6). */
function pushTranscript(room: Room | undefined, message: TranscriberMessage): void {
  for (const member of room?.participants() ?? []) {
    if (hasPrivilege(member.privileges, PRIVILEGE.RECV_AUDIO)) member.push('transcriber-message', message);
  }
}

const list = (value: string | readonly string[] | undefined): string[] => value === undefined ? [] : typeof value === 'string' ? [value] : [...value];

/**
 * Every transcriber robot of the server (docs/behaviour.md §3.6). A robot lives in one room until it is stopped
 * or its room empties; its state changes and sentences are pushed to everyone in the room.
 */
export class TranscriberManager {
  readonly #robots = new Map<string, Transcriber>();
  readonly #engine: MediaEngine;
  readonly #rooms: RoomRegistry;
  readonly #logger: Logger;
  readonly #recognizer: Recognizer | undefined;
  readonly #timer: ReturnType<typeof setInterval>;
  /** What robots that ended did (the totals of snapshot()). */
  readonly #ended = { audioSeconds: 0, failures: 0 };
  readonly #limits: Pick<LimitsConfig, 'transcribersPerApp' | 'transcribersPerNode'>;
  readonly #quotaRefusals = { app: 0, node: 0 };

  /** `recognizer` undefined: this server transcribes nothing (every start is refused UNAVAILABLE). */
  constructor(parts: { engine: MediaEngine; rooms: RoomRegistry; logger: Logger; recognizer: Recognizer | undefined; limits: Pick<LimitsConfig, 'transcribersPerApp' | 'transcribersPerNode'> }) {
    this.#limits = parts.limits;
    this.#engine = parts.engine;
    this.#rooms = parts.rooms;
    this.#logger = parts.logger;
    this.#recognizer = parts.recognizer;
    this.#timer = setInterval(() => this.tick(), TICK_MS);
    this.#timer.unref();
  }

  /**
   * Starts a robot in `room` for `owner`; throws a TranscriberError for an owner that may not receive audio
   * (PRIVILEGE_DENIED: the robot hears for it), what this server cannot do (translation, a language without a
   * model, no RTP forwarding), a robot id already running, too many robots in the room, or a quota reached
   * (QUOTA_EXCEEDED: the app's robots on this node, or the node's).
   */
  start(room: Room, owner: RobotOwner, roomId: string, data: TranscriberStartData): TranscriberStartReply {
    const { userId } = owner;
    if (!hasPrivilege(owner.privileges, PRIVILEGE.RECV_AUDIO)) {
      throw new TranscriberError(SERVER_CODE.PRIVILEGE_DENIED, 'privateMapKey does not grant receiving audio, which a transcriber transcribes');
    }
    const recognizer = this.#recognizer;
    const forwardRtp = this.#engine.forwardRtp?.bind(this.#engine);
    if (!recognizer || !forwardRtp) throw new TranscriberError(TRANSCRIBER_CODE.UNAVAILABLE, 'live transcription is not available on this server (no recognizer, or its media engine cannot forward RTP)');
    if (list(data.translationLanguages).some((l) => l.trim() !== '')) {
      throw new TranscriberError(TRANSCRIBER_CODE.UNSUPPORTED, `translationLanguages needs a cloud translation model, which this server does not have (its recognizer, ${recognizer.name}, runs offline and only transcribes)`);
    }
    const language = recognizer.language(data.sourceLanguage);
    if (!language) throw new TranscriberError(TRANSCRIBER_CODE.UNSUPPORTED, `sourceLanguage '${data.sourceLanguage}' is not one this server's offline recognizer (${recognizer.name}) has a model for`);
    const robotId = data.transcriberRobotId ?? `transcriber_${roomId}_robot_${userId}`;
    const inRoom = this.#inRoom(room.key);
    if (inRoom.some((robot) => robot.robotId === robotId)) throw new TranscriberError(TRANSCRIBER_CODE.ALREADY_RUNNING, `transcriber ${robotId} is already running in this room`);
    if (inRoom.length >= TRANSCRIBER_LIMITS.MAX_PER_ROOM) throw new TranscriberError(TRANSCRIBER_CODE.TOO_MANY, `a room may have at most ${TRANSCRIBER_LIMITS.MAX_PER_ROOM} transcribers`);
    this.#withinQuota(room.sdkAppId);
    const userIds = data.userIdsToTranscribe === undefined || data.userIdsToTranscribe === 'all' ? 'all' : list(data.userIdsToTranscribe);
    const key = `${room.key}/${robotId}`;
    const robot = new Transcriber({
      robotId, roomKey: room.key, sdkAppId: room.sdkAppId, sourceLanguage: data.sourceLanguage, language, userIds, ownerUserId: userId,
      ownerPrivileges: owner.privileges, recognizer, forwardRtp, logger: this.#logger,
      onMessage: (message) => pushTranscript(this.#rooms.find(room.key), message),
      onFailure: (reason) => void this.#end(key, { error: TRANSCRIBER_CODE.FAILED, errorMessage: `the recognizer keeps failing: ${reason}` }),
    });
    this.#robots.set(key, robot);
    room.broadcast(undefined, 'transcriber-state', { state: 'started', transcriberRobotId: robotId, sourceLanguage: data.sourceLanguage });
    robot.reconcile(room);
    this.#logger.info({ robot: robotId, room: room.key, language, recognizer: recognizer.name }, 'transcriber started');
    return { robotId, taskId: robotId };
  }

  /**
   * Stops a robot of the room; throws NOT_RUNNING when there is none. Returns once it is gone from the room (its id
   * is free again); the sentences in progress are finalised and pushed after, then `stopped` (a recognizer behind
   * on a loaded machine may take seconds to drain, longer than a client waits for its reply).
   */
  stop(roomKey: string, robotId: string): void {
    const key = `${roomKey}/${robotId}`;
    if (!this.#robots.has(key)) throw new TranscriberError(TRANSCRIBER_CODE.NOT_RUNNING, `transcriber ${robotId} is not running in this room`);
    void this.#end(key, {});
  }

  async #end(key: string, why: { error?: number; errorMessage?: string }): Promise<void> {
    const robot = this.#robots.get(key);
    if (!robot) return;
    this.#robots.delete(key);
    await robot.stop().catch((error: unknown) => this.#logger.warn({ err: error, robot: robot.robotId }, 'transcriber: stopping failed'));
    const done = robot.info();
    this.#ended.audioSeconds += done.audioSeconds;
    this.#ended.failures += done.failures;
    this.#rooms.find(robot.options.roomKey)?.broadcast(undefined, 'transcriber-state', { state: 'stopped', transcriberRobotId: robot.robotId, sourceLanguage: robot.options.sourceLanguage, ...why });
    this.#logger.info({ robot: robot.robotId, room: robot.options.roomKey, ...why }, 'transcriber stopped');
  }

  /** Throws QUOTA_EXCEEDED (counted) when the app's robots, or the node's, are at their limit. */
  #withinQuota(sdkAppId: number): void {
    const { transcribersPerApp, transcribersPerNode } = this.#limits;
    if ([...this.#robots.values()].filter((robot) => robot.options.sdkAppId === sdkAppId).length >= transcribersPerApp) {
      this.#quotaRefusals.app++;
      throw new TranscriberError(TRANSCRIBER_CODE.QUOTA_EXCEEDED, `this app runs its ${transcribersPerApp} transcribers on this server (limits.transcribersPerApp): stop one first`);
    }
    if (this.#robots.size >= transcribersPerNode) {
      this.#quotaRefusals.node++;
      throw new TranscriberError(TRANSCRIBER_CODE.QUOTA_EXCEEDED, `this server runs its ${transcribersPerNode} transcribers (limits.transcribersPerNode): try again later`);
    }
  }

  #inRoom(roomKey: string): Transcriber[] {
    return [...this.#robots.values()].filter((robot) => robot.options.roomKey === roomKey);
  }

  /** The robots (of one room, or all) as the admin view and the bench see them. */
  list(roomKey?: string): TranscriberInfo[] {
    return [...this.#robots.values()].filter((r) => roomKey === undefined || r.options.roomKey === roomKey).map((r) => r.info());
  }

  /** Running robots by recognizer, audio transcribed and failures so far (/metrics). */
  snapshot(): TranscribersSnapshot {
    const snapshot: TranscribersSnapshot = { robots: {}, audioSeconds: this.#ended.audioSeconds, failures: this.#ended.failures, quotaRefusals: { ...this.#quotaRefusals } };
    if (this.#recognizer) snapshot.robots[this.#recognizer.name] = 0;
    for (const robot of this.#robots.values()) {
      const info = robot.info();
      snapshot.robots[info.recognizer] = (snapshot.robots[info.recognizer] ?? 0) + 1;
      snapshot.audioSeconds += info.audioSeconds;
      snapshot.failures += info.failures;
    }
    return snapshot;
  }

  /** Binds robots to their rooms' speakers; a robot whose room emptied ends. */
  tick(): void {
    for (const [key, robot] of this.#robots) {
      const room = this.#rooms.find(robot.options.roomKey);
      if (!room || room.size === 0) void this.#end(key, {});
      else robot.reconcile(room);
    }
  }

  /** Stops every robot (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([...this.#robots.keys()].map((key) => this.#end(key, {})));
  }
}
