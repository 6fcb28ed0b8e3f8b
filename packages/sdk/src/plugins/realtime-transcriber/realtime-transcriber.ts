import { TRANSCRIBER_CODE, type TranscriberStartReply } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext, PluginSignalFailure } from '../../plugin-api/index.js';
import { robotIdOf, toStartData, type StartRealtimeTranscriberOption, type StopRealtimeTranscriberOption } from './options.js';

export type { StartRealtimeTranscriberOption, StopRealtimeTranscriberOption } from './options.js';

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
/** Where robots this user started are remembered, so a reloaded page can stop them (the original's key prefix). */
const STORAGE_KEY_PREFIX = 'TRTC_RT_';

/**
 * The RealtimeTranscriber plugin (trtc-sdk-v5's plugins/realtime-transcriber): starts a transcriber robot on the
 * Conclave server that transcribes the room's speech offline (its recognizer, PocketSphinx by default, is the
 * server operator's choice). Every user of the room — registered or not — gets the robot's
 * `realtime-transcriber-state-changed` and `realtime-transcriber-message` events from the core
 * (docs/behaviour.md §3.6). Translation needs a cloud model: a start with translationLanguages is refused.
 */
export class RealtimeTranscriber {
  static readonly Name = 'RealtimeTranscriber';
  private readonly _ctx: PluginContext;
  /** Robots this instance started (robot id → task id). */
  private readonly _active = new Map<string, string>();

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /**
   * Starts a robot in the room; resolves once it runs (its `started` state event reaches the room). Rejects with
   * INVALID_PARAMETER for bad options, INVALID_OPERATION before enterRoom, and SERVER_ERROR with the server's code
   * as extraCode (TRANSCRIBER_CODE) for what the server refuses: translation or a language without a model
   * (-1040), a robot id already running (-1041), too many robots in the room (-1042), no transcriber (-1044).
   */
  async start(options: StartRealtimeTranscriberOption): Promise<void> {
    const data = toStartData(options, this._ctx.errors);
    this._needJoined('startPlugin');
    let reply: TranscriberStartReply;
    try {
      reply = await this._ctx.signal.request('transcriber-start', data, START_TIMEOUT_MS) as TranscriberStartReply;
    } catch (error) {
      throw this._failure(error, 'startPlugin');
    }
    this._active.set(reply.robotId, reply.taskId);
    this._save();
    this._ctx.log.info(`RealtimeTranscriber: robot ${reply.robotId} started (${data.sourceLanguage})`);
  }

  /** Updates nothing: the original's update is a no-op too. */
  async update(): Promise<void> {
    // The original plugin's update does nothing; options change by stop and start.
  }

  /**
   * Stops a robot (the sentence in progress is finalised first); a robot that is no longer running is not an
   * error, as with the original. Rejects with INVALID_PARAMETER without transcriberRobotId, INVALID_OPERATION
   * before enterRoom, SERVER_ERROR when the server refuses.
   */
  async stop(options?: StopRealtimeTranscriberOption): Promise<void> {
    const robotId = robotIdOf(options, this._ctx.errors);
    this._needJoined('stopPlugin');
    const taskId = this._active.get(robotId) ?? this._load()?.get(robotId) ?? robotId;
    try {
      await this._ctx.signal.request('transcriber-stop', { transcriberRobotId: taskId }, STOP_TIMEOUT_MS);
    } catch (error) {
      if ((error as PluginSignalFailure).code !== TRANSCRIBER_CODE.NOT_RUNNING) throw this._failure(error, 'stopPlugin');
      this._ctx.log.warn(`RealtimeTranscriber: robot ${robotId} was not running`);
    } finally {
      this._active.delete(robotId);
      this._save();
    }
  }

  private _needJoined(functionName: string): void {
    if (!this._ctx.signal.joined()) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, extraCode: EXTRA_CODE.NOT_JOINED, message: 'please call enterRoom() before using RealtimeTranscriber', functionName });
    }
  }

  /** A server refusal as the original reports its cloud's: SERVER_ERROR with the code as extraCode and its message. */
  private _failure(error: unknown, functionName: string): Error {
    const { code, message } = error as PluginSignalFailure;
    if (code === 0) return this._ctx.errors({ code: ERROR_CODE.SERVER_ERROR, message: `RealtimeTranscriber: ${message}`, functionName });
    return this._ctx.errors({ code: ERROR_CODE.SERVER_ERROR, extraCode: code, message, functionName });
  }

  private _storageKey(): string {
    return `${STORAGE_KEY_PREFIX}${this._ctx.room().userId}`;
  }

  private _save(): void {
    try {
      if (this._active.size === 0) localStorage.removeItem(this._storageKey());
      else localStorage.setItem(this._storageKey(), JSON.stringify(Object.fromEntries([...this._active].map(([robot, taskId]) => [robot, { taskId }]))));
    } catch {
      // Storage may be unavailable (private mode); stopping by robot id still works.
    }
  }

  private _load(): Map<string, string> | undefined {
    try {
      const saved = JSON.parse(localStorage.getItem(this._storageKey()) ?? 'null') as Record<string, { taskId?: unknown }> | null;
      if (!saved || typeof saved !== 'object') return undefined;
      return new Map(Object.entries(saved).flatMap(([robot, v]) => typeof v?.taskId === 'string' ? [[robot, v.taskId] as [string, string]] : []));
    } catch {
      return undefined; // storage blocked or an entry not ours: no saved tasks
    }
  }

  /** Forgets the robots (they keep running until stopped or the room empties, as the original's do). */
  destroy(): void {
    this._active.clear();
    try {
      localStorage.removeItem(this._storageKey());
    } catch {
      // nothing stored
    }
  }
}
