import type { CommandMap } from '@conclave/protocol';
import type { SignalDeps } from './signal-deps.js';
import { CommandError } from './command-error.js';
import type { JobCaller } from './cdn-commands.js';
import { parseRoomRef } from '../ids/room-ref.js';
import { TranscriberError } from '../transcriber/transcriber-manager.js';

type TranscriberCommand = 'transcriber-start' | 'transcriber-stop';
type TranscriberHandlers = { [C in TranscriberCommand]: (data: CommandMap[C]['data']) => Promise<CommandMap[C]['reply']> };

/** A TranscriberError as the command's coded reply. */
function coded<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TranscriberError) throw new CommandError(error.code, error.message);
    throw error;
  }
}

/**
 * The RealtimeTranscriber commands (schemas in @conclave/protocol commands/transcriber.ts, validated by the session
 * like every command) for one signalling session: a robot runs in the caller's room until it is stopped or the
 * room empties (docs/behaviour.md §3.6). `context` is read at call time.
 */
export function transcriberCommandHandlers(context: () => Pick<SignalDeps, 'transcribers'>, caller: JobCaller): TranscriberHandlers {
  return {
    'transcriber-start': async (data) => {
      const { participant, room } = caller();
      const roomId = parseRoomRef(room.ref)?.roomId ?? room.ref;
      return coded(() => context().transcribers.start(room, participant, roomId, data));
    },
    'transcriber-stop': async ({ transcriberRobotId }) => {
      const { room } = caller();
      coded(() => context().transcribers.stop(room.key, transcriberRobotId));
      return {};
    },
  };
}
