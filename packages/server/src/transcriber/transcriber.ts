import { FLAG, TRANSCRIBER_LIMITS, type TranscriberMessage } from '@conclave/protocol';
import type { Logger } from 'pino';
import type { MediaEngine } from '../engine/media-engine.js';
import { allowedWants } from '../auth/privileges.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';
import type { Recognizer } from './recognizer.js';
import { Speaker, type SpeakerResult } from './speaker.js';

/** Recognizer or decoder deaths a robot survives (its speaker starts again on the next tick) in a minute. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 60_000;

export interface TranscriberOptions {
  robotId: string;
  roomKey: string;
  /** The room's app (the robots' quotas are per app). */
  sdkAppId: number;
  /** The language the app asked for (echoed in state events). */
  sourceLanguage: string;
  /** The recognizer's model language for it. */
  language: string;
  /** 'all', or whose speech. */
  userIds: 'all' | readonly string[];
  /** The participant (session id) who started it, and its user. */
  ownerUserId: string;
  /** What its starter may receive (PRIVILEGE bits): the robot hears only that of what each speaker may send. */
  ownerPrivileges: number;
  recognizer: Recognizer;
  forwardRtp: NonNullable<MediaEngine['forwardRtp']>;
  logger: Logger;
  /** A sentence, partial or final, for the room. */
  onMessage(message: TranscriberMessage): void;
  /** The robot gave up (its recognizer keeps failing). */
  onFailure(reason: string): void;
}

/** A robot as the admin API and the bench see it. */
export interface TranscriberInfo {
  robotId: string;
  roomKey: string;
  sourceLanguage: string;
  recognizer: string;
  speakers: { userId: string; packets: number; audioSeconds: number }[];
  /** Finals pushed so far. */
  sentences: number;
  /** Of the last final: ms from its last audio reaching the server to its push. */
  lastFinalLatencyMs: number | null;
  /** Recognizer + decoder CPU is the processes'; this is the audio they were fed, in seconds. */
  audioSeconds: number;
  /** Recognizer or decoder failures so far (one that failed to start included). */
  failures: number;
}

/**
 * One transcriber robot in one room: a Speaker (decoder + recognizer stream) per transcribed user who publishes
 * audio, bound by userId on every tick (a user who rejoins is a new participant; one who stops publishing audio is
 * let go), and its sentences turned into transcriber-message pushes.
 */
export class Transcriber {
  readonly options: TranscriberOptions;
  readonly #speakers = new Map<string, Speaker | 'starting'>();
  #failures: number[] = [];
  #failureCount = 0;
  #sentences = 0;
  #lastLatency: number | null = null;
  #doneSeconds = 0;
  #stopped = false;

  constructor(options: TranscriberOptions) {
    this.options = options;
  }

  get robotId(): string {
    return this.options.robotId;
  }

  /**
   * Binds speakers to the room's users who publish audio the robot may hear — what the speaker may send and its
   * starter may receive (allowedWants), in the clear (end-to-end encrypted audio cannot be decoded here) —; lets
   * go of those who left, stopped, or may no longer be heard.
   */
  reconcile(room: Room): void {
    if (this.#stopped) return;
    const wanted = new Map<string, string>();
    for (const participant of room.participants()) {
      const asked = this.options.userIds === 'all' || this.options.userIds.includes(participant.userId);
      if (asked && (participant.flag & FLAG.AUDIO) !== 0 && this.#mayHear(participant) && wanted.size < TRANSCRIBER_LIMITS.MAX_USERS) wanted.set(participant.userId, participant.id);
    }
    for (const [userId, speaker] of this.#speakers) {
      if (speaker === 'starting' || wanted.get(userId) === speaker.participantId) continue;
      this.#speakers.delete(userId);
      this.#doneSeconds += speaker.audioSeconds;
      void speaker.stop();
    }
    for (const [userId, participantId] of wanted) {
      if (!this.#speakers.has(userId)) this.#startSpeaker(userId, participantId);
    }
  }

  #mayHear(speaker: Participant): boolean {
    return !speaker.encrypted && allowedWants({ audio: true, bigVideo: false, smallVideo: false, auxVideo: false }, speaker.privileges, this.options.ownerPrivileges).audio;
  }

  #startSpeaker(userId: string, participantId: string): void {
    this.#speakers.set(userId, 'starting');
    const { recognizer, language, forwardRtp, logger } = this.options;
    Speaker.start(participantId, recognizer, language, (port) => forwardRtp(participantId, { stream: 'main', audioPort: port }), {
      onResult: (result) => this.#onResult(userId, result),
      onFailure: (reason) => this.#onFailure(userId, reason),
    }).then((speaker) => {
      if (this.#stopped || this.#speakers.get(userId) !== 'starting') {
        speaker.close();
        return;
      }
      this.#speakers.set(userId, speaker);
      logger.info({ robot: this.robotId, userId }, 'transcriber: transcribing a user');
    }, (error: unknown) => {
      if (this.#speakers.get(userId) === 'starting') this.#speakers.delete(userId);
      this.#onFailure(userId, error instanceof Error ? error.message : String(error));
    });
  }

  #onResult(userId: string, result: SpeakerResult): void {
    if (!result.text) return;
    if (result.final) {
      this.#sentences++;
      if (result.endedAt !== undefined) this.#lastLatency = Math.max(0, Date.now() - result.endedAt);
    }
    this.options.onMessage({
      segmentId: `${this.robotId}-${userId}-${result.sentence}`,
      speakerUserId: userId,
      sourceText: result.text,
      timestamp: result.startedAt,
      isCompleted: result.final,
      robotId: this.robotId,
    });
  }

  #onFailure(userId: string, reason: string): void {
    if (this.#stopped) return;
    this.options.logger.warn({ robot: this.robotId, userId, reason }, 'transcriber: a speaker failed');
    const current = this.#speakers.get(userId);
    if (current && current !== 'starting') {
      this.#speakers.delete(userId);
      current.close();
    }
    this.#failureCount++;
    const now = Date.now();
    this.#failures = [...this.#failures.filter((t) => now - t < FAILURE_WINDOW_MS), now];
    if (this.#failures.length >= MAX_FAILURES) this.options.onFailure(reason);
  }

  /** Stops every speaker; sentences in progress are finalised and pushed first. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    const speakers = [...this.#speakers.values()].filter((s): s is Speaker => s !== 'starting');
    await Promise.all(speakers.map((speaker) => speaker.stop()));
    this.#stopped = true;
    this.#speakers.clear();
  }

  /** The robot as the admin API and the bench see it. */
  info(): TranscriberInfo {
    const speakers = [...this.#speakers.entries()].flatMap(([userId, s]) => s === 'starting' ? [] : [{ userId, packets: s.packets, audioSeconds: s.audioSeconds }]);
    return {
      robotId: this.robotId,
      roomKey: this.options.roomKey,
      sourceLanguage: this.options.sourceLanguage,
      recognizer: this.options.recognizer.name,
      speakers,
      sentences: this.#sentences,
      lastFinalLatencyMs: this.#lastLatency,
      audioSeconds: this.#doneSeconds + speakers.reduce((sum, s) => sum + s.audioSeconds, 0),
      failures: this.#failureCount,
    };
  }
}
