/**
 * Live transcription (RealtimeTranscriber): the types inferred from commands/transcriber.ts (type-only imports:
 * the SDK bundles no zod), the reply codes and limits.
 */
import type { z } from 'zod';
import type { transcriberMessage, transcriberStartData, transcriberStartReply, transcriberState, transcriberStopData } from './commands/transcriber.js';

export type TranscriberStartData = z.infer<typeof transcriberStartData>;
export type TranscriberStartReply = z.infer<typeof transcriberStartReply>;
export type TranscriberStopData = z.infer<typeof transcriberStopData>;
export type TranscriberMessage = z.infer<typeof transcriberMessage>;
export type TranscriberState = z.infer<typeof transcriberState>;

/**
 * Reply codes of the transcriber commands (the SDK shows them as SERVER_ERROR with the code as extraCode, as the
 * original shows its cloud's codes). NOT_RUNNING is the original cloud's "task not found" (2002), which its
 * plugin's stop ignores.
 */
export const TRANSCRIBER_CODE = Object.freeze({
  /** Stop of a robot that is not running. */
  NOT_RUNNING: 2002,
  /** What the offline recognizer cannot do: translation, or a language it has no model for. */
  UNSUPPORTED: -1040,
  /** A robot with this id already runs in the room. */
  ALREADY_RUNNING: -1041,
  /** The room has the most robots it may have. */
  TOO_MANY: -1042,
  /** The recognizer failed to start or died. */
  FAILED: -1043,
  /** This server runs no transcriber (its media engine cannot forward RTP, or no recognizer is configured). */
  UNAVAILABLE: -1044,
  /** The app's robots on this node are at `limits.transcribersPerApp`, or the node's at `limits.transcribersPerNode` (the message says which). */
  QUOTA_EXCEEDED: -1045,
} as const);

/** Limits of live transcription. */
export const TRANSCRIBER_LIMITS = Object.freeze({
  /** Robots per room. */
  MAX_PER_ROOM: 2,
  /** Users one robot transcribes at a time ('all' takes the first this many who publish audio). */
  MAX_USERS: 16,
} as const);
