/**
 * Live transcription (the RealtimeTranscriber plugin): the commands it sends on the room's WebSocket and the
 * pushes every user of the room gets. The server runs an offline recognizer per transcribed user (see the
 * server's transcriber/); docs/behaviour.md §3.6.
 */
import { z } from 'zod';
import { TRANSCRIBER_LIMITS } from '../transcriber.js';
import { command, empty, userId } from './fields.js';

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).max(TRANSCRIBER_LIMITS.MAX_USERS)]);
/** A transcriber's robot id: the user id its messages name as `robotId`. */
const robotId = z.string().min(1).max(128).regex(/^[A-Za-z0-9_@.-]+$/, 'must be letters, digits, _ @ . or -');

/** startPlugin('RealtimeTranscriber', options): the plugin's options as they travel. */
export const transcriberStartData = z.strictObject({
  /** The spoken language ('en', 'en-US', the original's '16k_en' …); the server says which it can recognise. */
  sourceLanguage: z.string().min(1).max(32),
  /** Languages to translate into: needs a cloud model; the server refuses any. */
  translationLanguages: oneOrMany(z.string().max(32)).optional(),
  /** Whose speech: 'all' (the default) or user ids. */
  userIdsToTranscribe: oneOrMany(userId).optional(),
  transcriberRobotId: robotId.optional(),
});

export const transcriberStartReply = z.object({
  /** The robot id (the given one, or `transcriber_<roomId>_robot_<userId>` as the original makes it). */
  robotId: z.string(),
  /** The task's id (the robot id on this server: stop takes either). */
  taskId: z.string(),
});

export const transcriberStopData = z.strictObject({ transcriberRobotId: z.string().min(1).max(128) });

/** The transcriber group of CommandMap. */
export const transcriberCommands = {
  /** Starts a transcriber robot in the caller's room; its state and messages are pushed to every user there. */
  'transcriber-start': command(transcriberStartData, transcriberStartReply),
  /** Stops one; a robot that is not running answers TRANSCRIBER_CODE.NOT_RUNNING (which the plugin ignores, as the original does). */
  'transcriber-stop': command(transcriberStopData, empty),
};

/** One partial or final sentence (the SDK emits it as realtime-transcriber-message, translationTexts []). */
export const transcriberMessage = z.object({
  /** The sentence's id: partials and the final of one sentence share it. */
  segmentId: z.string(),
  speakerUserId: z.string(),
  sourceText: z.string(),
  /** When the sentence began (ms since the epoch, server clock). */
  timestamp: z.number(),
  /** true for the final text of the sentence. */
  isCompleted: z.boolean(),
  robotId: z.string(),
});

/** A robot started or stopped (realtime-transcriber-state-changed; the SDK adds the roomId). */
export const transcriberState = z.object({
  state: z.enum(['started', 'stopped']),
  transcriberRobotId: z.string(),
  sourceLanguage: z.string().optional(),
  /** Why it stopped when it failed (a TRANSCRIBER_CODE). */
  error: z.number().optional(),
  errorMessage: z.string().optional(),
});

/** The transcriber's pushes (spread into PUSH_SCHEMAS). */
export const transcriberPushes = {
  'transcriber-message': transcriberMessage,
  'transcriber-state': transcriberState,
};
