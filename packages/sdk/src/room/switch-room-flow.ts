import type { PeerInfo } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, operationFailed, serverError } from '../errors/catalogue.js';
import { SignalReplyError, type SignalChannel } from '../signal/signal-channel.js';
import type { EnterRoomConfig } from '../types.js';
import type { RoomTarget } from '../validate/enter-room.js';
import type { SwitchRoomTarget } from '../validate/switch-room.js';
import type { DataLinkSession } from './data-link-session.js';
import type { Room } from './room.js';

/** What switchRoom needs of the room session beyond its public parts. */
export interface SwitchRoomSession {
  signal: SignalChannel | undefined;
  config: EnterRoomConfig | undefined;
  dataLink: DataLinkSession;
  /** The session now lives in `target`, with these settings and this token (set before the links reopen). */
  moved(config: EnterRoomConfig, target: RoomTarget, sessionToken: string): void;
}

/**
 * Moves this session to another room (switchRoom) with one server command, authorised there like a join.
 * The old room's users leave (remote-user-exit) and the media links start afresh in the new room: its users
 * enter, and the local tracks are published again (an anchor's). A refusal leaves the session where it was.
 */
export async function switchRoom(room: Room, session: SwitchRoomSession, { target, userSig, privateMapKey }: SwitchRoomTarget): Promise<void> {
  const { signal, config, dataLink } = session;
  if (room.machine.state !== 'joined' || !signal || !config) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() before switchRoom()', 'switchRoom');
  let reply: { sessionToken: string; userList: PeerInfo[]; audienceCount?: number };
  try {
    reply = await signal.request('switch-room', { userSig, roomId: target.roomId, useStringRoomId: target.isString, ...(privateMapKey ? { privateMapKey } : {}) });
  } catch (error) {
    if (error instanceof SignalReplyError) throw serverError(error.code, `switch room failed: ${error.message}`, 'switchRoom');
    throw operationFailed(undefined, `switch room failed: ${(error as Error).message}`, 'switchRoom', error);
  }
  room.remotes.leaveAll();
  room.remotes.clear();
  dataLink.close();
  room.messages.reset();
  room.publisher.closeUplink();
  const { roomId: _roomId, strRoomId: _strRoomId, privateMapKey: _key, ...rest } = config;
  session.moved({
    ...rest, userSig, ...(target.isString ? { strRoomId: target.roomId } : { roomId: Number(target.roomId) }), ...(privateMapKey ? { privateMapKey } : {}),
  }, target, reply.sessionToken);
  room.remotes.addPeers(reply.userList);
  room.audience.set(reply.audienceCount);
  dataLink.open();
  await room.publisher.publishPending();
}
