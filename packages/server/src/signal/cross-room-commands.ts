import type { CommandMap, CrossRoomStartData } from '@conclave/protocol';
import { CrossRoomError, type CrossRooms, type OtherRoom } from '../room/cross-room.js';
import { RoomRegistry } from '../room/room.js';
import { roomRef } from '../ids/room-ref.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';
import { CommandError } from './command-error.js';

/** The session a cross-room command comes from (throws when it has not joined). */
export type CrossRoomCaller = () => { participant: Participant; room: Room };

type CrossRoomCommand = 'cross-room-start' | 'cross-room-update' | 'cross-room-stop';
type CrossRoomHandlers = { [C in CrossRoomCommand]: (data: CommandMap[C]['data']) => Promise<CommandMap[C]['reply']> };

/** The other room named by a command, in the caller's app: a string roomId is a strRoomId unless `isStrRoomId` is false. */
function otherRoom(room: Room, data: Pick<CrossRoomStartData, 'roomId' | 'isStrRoomId'>): OtherRoom {
  const isString = typeof data.roomId === 'string' && data.isStrRoomId !== false;
  const id = String(data.roomId);
  const roomId = isString ? id : String(Number(id));
  return { key: RoomRegistry.key(room.sdkAppId, id, isString), ref: roomRef(roomId, isString), roomId, isString, label: isString ? `'${id}'` : id };
}

/** Runs a cross-room operation; its refusal becomes the command's reply code. */
async function run<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof CrossRoomError) throw new CommandError(error.code, error.message);
    throw error;
  }
}

/**
 * The cross-room commands (schemas in @conclave/protocol commands/cross-room.ts, validated by the session like
 * every command) for one signalling session, on the domain's CrossRooms (docs/behaviour.md §7.6). `context` is read at
 * call time (the session builds its handler table before its constructor runs).
 */
export function crossRoomCommandHandlers(context: () => { crossRooms: CrossRooms }, caller: CrossRoomCaller): CrossRoomHandlers {
  return {
    'cross-room-start': (data) => run(async () => {
      const { participant, room } = caller();
      await context().crossRooms.start(room, participant, otherRoom(room, data), data.userId, data.privateMapKey);
      return {};
    }),
    'cross-room-update': (data) => run(() => {
      const { participant, room } = caller();
      context().crossRooms.update(room, participant, data.updateList.map((item) => ({ other: otherRoom(room, item), item })));
      return {};
    }),
    'cross-room-stop': (data) => run(() => {
      const { participant, room } = caller();
      context().crossRooms.stop(room, participant, data.roomId === undefined ? undefined : otherRoom(room, { roomId: data.roomId, isStrRoomId: data.isStrRoomId }));
      return {};
    }),
  };
}
