import { randomUUID } from 'node:crypto';
import {
  LIMITS, ROLE_CODE, SCENE_CODE, SERVER_CODE, SUPPORTED_PROTOCOL_VERSIONS,
  type Command, type CommandMap, type PushMap, type PushName, type ReplyMessage, type LeaveReason, type RoleCode,
} from '@conclave/protocol';
import type { SignalDeps } from './signal-deps.js';
import { Participant } from '../room/participant.js';
import { RoomRegistry, type Room } from '../room/room.js';
import { removeParticipant } from '../room/eviction.js';
import { capacityRefusal } from '../room/capacity.js';
import { roomRef } from '../ids/room-ref.js';
import { InvalidMessage, InvalidMessageLog, parseEnvelope, validateData } from './validate.js';
import { downlinkSignal } from './downlink-signal.js';
import { cdnCommandHandlers } from './cdn-commands.js';
import { transcriberCommandHandlers } from './transcriber-commands.js';
import { crossRoomCommandHandlers } from './cross-room-commands.js';
import { roleCommandHandlers } from './role-commands.js';
import { CommandError } from './command-error.js';
import { mediaCommandHandlers, stopPublishing } from './media-commands.js';
import { admitJoin, JoinCredentials } from './admission.js';
import { CommandGate } from './command-gate.js';

/** Where a session writes: the WebSocket, abstracted for tests. */
export interface SessionTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** The client's address (call records). */
  address?: string;
}

type JoinData = CommandMap['join']['data'];

/** Where an admitted join goes, and with what. */
interface Placement {
  roomKey: string;
  ref: string;
  role: RoleCode;
  privileges: number;
}

type Handler<C extends Command> = (data: CommandMap[C]['data']) => Promise<CommandMap[C]['reply']>;

let tinyIdCounter = 0;

/**
 * The scene each participant joined with: a resumed session keeps it, whatever the resuming join says, so an
 * audience of a live room cannot become an rtc-scene anchor (who may publish) by resuming with `trtcScene: 1`.
 */
const joinedScene = new WeakMap<Participant, 1 | 2>();

/**
 * A room broadcast hands every recipient the same data object: it is encoded once, not once per recipient
 * (bench signal-load: per-recipient JSON.stringify was a visible share of a busy node's CPU).
 */
const encodedPushes = new WeakMap<object, { push: PushName; text: string }>();
function encodePush<P extends PushName>(push: P, data: PushMap[P]): string {
  const cached = encodedPushes.get(data);
  if (cached?.push === push) return cached.text;
  const text = JSON.stringify({ push, data });
  encodedPushes.set(data, { push, text });
  return text;
}

/**
 * One signalling connection: validates every message, runs its command and replies with a code.
 * Bad input never throws out of here; it gets a reply and the connection goes on.
 */
export class SignalSession {
  readonly #ctx: SignalDeps;
  readonly #transport: SessionTransport;

  /** The join reply's clientIp: the client's address as this server sees it (the SDK keys its TURN/TCP memory by it, docs/behaviour.md §4.9). */
  #clientIp(): { clientIp?: string } {
    return this.#transport.address ? { clientIp: this.#transport.address } : {};
  }
  #participant: Participant | undefined;
  #room: Room | undefined;
  #scene: 1 | 2 = SCENE_CODE.rtc;
  #closed = false;
  #windowStart = 0;
  #windowCount = 0;
  #joining = false;
  /** The join this session entered with (switch-room keeps its identity and client fields). */
  #joinData: JoinData | undefined;
  readonly #invalidLog: InvalidMessageLog;
  readonly #credentials: JoinCredentials;
  readonly #gate: CommandGate;
  /** This connection's place in the join admission queue (admitJoin). */
  readonly #queuePlace: { ticket: string | undefined } = { ticket: undefined };

  constructor(ctx: SignalDeps, transport: SessionTransport) {
    this.#ctx = ctx;
    this.#transport = transport;
    this.#invalidLog = new InvalidMessageLog(ctx.logger);
    this.#credentials = new JoinCredentials(ctx.auth, ctx.config.limits.failedJoinsPerConnection, transport.address ?? 'unknown', (code, reason) => this.#closeConnection(code, reason));
    this.#gate = new CommandGate(ctx.config.limits.commandsInFlight);
  }

  /** Handles one raw message from the client. */
  async handle(raw: string): Promise<void> {
    if (this.#closed) return;
    this.#ctx.signalObserver.emit({ type: 'message' });
    if (Buffer.byteLength(raw) > LIMITS.MAX_MESSAGE_BYTES) {
      this.#reply({ id: -1, code: SERVER_CODE.MESSAGE_TOO_LARGE, message: `message exceeds ${LIMITS.MAX_MESSAGE_BYTES} bytes` });
      return;
    }
    let id = -1;
    let cmd: Command | undefined;
    try {
      const envelope = parseEnvelope(raw);
      id = envelope.id;
      cmd = envelope.cmd;
      if (!this.#withinRate()) throw new CommandError(SERVER_CODE.RATE_LIMITED, 'call frequency limit exceeded');
      const data = validateData(envelope.cmd, envelope.data);
      const reply = await this.#gate.run(envelope.cmd, () => this.#dispatch(envelope.cmd, data));
      this.#reply({ id, code: SERVER_CODE.OK, message: 'ok', data: reply });
    } catch (error) {
      if (error instanceof CommandError) {
        this.#reply({ id, code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) });
      } else if (error instanceof InvalidMessage) {
        const replyId = error.id ?? id;
        this.#invalidLog.note({ cmd, id: replyId, userId: this.#participant?.userId }, error.message);
        this.#reply({ id: replyId, code: error.code ?? (replyId === -1 ? SERVER_CODE.BAD_REQUEST : SERVER_CODE.INVALID_PARAMETER), message: error.message });
      } else {
        this.#ctx.logger.error({ err: error, cmd }, 'command failed');
        this.#reply({ id, code: SERVER_CODE.INTERNAL, message: 'internal error' });
      }
    }
  }

  /**
   * The connection went away. A clean close (the page went away) leaves the room at once; a dropped or
   * silent connection keeps the session for the grace period so the client can resume it.
   */
  closed(reason: LeaveReason, graceful = reason !== 'timeout'): void {
    if (this.#closed) return;
    this.#closed = true;
    if (graceful) this.#leave(reason);
    else this.#detach();
  }

  /** Another connection resumed this session: let go of it without leaving, and close. */
  release(): void {
    this.#participant = undefined;
    this.#room = undefined;
    this.#closed = true;
    this.#transport.close(4001, 'session resumed by another connection');
  }

  #detach(): void {
    const participant = this.#participant;
    const room = this.#room;
    this.#participant = undefined;
    this.#room = undefined;
    if (!participant || !room) return;
    this.#ctx.logger.info({ room: room.key, userId: participant.userId }, 'connection lost; session kept for resume');
    participant.detach(this.#ctx.config.sessionGraceMs, () => this.#remove(participant, room, 'timeout'));
  }

  /** Removes this session from its room because another session took its place or the server said so. */
  evict(data: PushMap['banned']): void {
    this.#send('banned', data);
    this.#leave('kick');
    this.#closed = true;
    this.#transport.close(4000, data.reason);
  }

  /** Closes the connection after the reply under way is written (a refusal that ends it). */
  #closeConnection(code: number, reason: string): void {
    this.#ctx.signalObserver.emit({ type: 'connection-closed', reason });
    setImmediate(() => this.#transport.close(code, reason));
  }

  #withinRate(): boolean {
    const now = Date.now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#windowCount = 0;
    }
    this.#windowCount++;
    // Requests per second one connection may make before replies say 'call frequency limit exceeded'.
    return this.#windowCount <= this.#ctx.config.limits.requestsPerSecond;
  }

  #reply(reply: ReplyMessage): void {
    if (reply.code !== SERVER_CODE.OK) this.#ctx.signalObserver.emit({ type: 'refused', code: reply.code });
    if (!this.#closed) this.#transport.send(JSON.stringify(reply));
  }

  #send<P extends PushName>(push: P, data: PushMap[P]): void {
    if (!this.#closed) this.#transport.send(encodePush(push, data));
  }

  #dispatch<C extends Command>(cmd: C, data: CommandMap[C]['data']): Promise<CommandMap[C]['reply']> {
    const handler = this.#handlers[cmd] as Handler<C>;
    return handler(data);
  }

  #joined(): { participant: Participant; room: Room } {
    if (!this.#participant || !this.#room) throw new CommandError(SERVER_CODE.NOT_JOINED, 'please join the room first');
    return { participant: this.#participant, room: this.#room };
  }

  #leave(reason: LeaveReason): void {
    const participant = this.#participant;
    const room = this.#room;
    this.#participant = undefined;
    this.#room = undefined;
    if (participant && room) this.#remove(participant, room, reason);
  }

  /** Ends a participant's session: media, subscriptions, membership. */
  #remove(participant: Participant, room: Room, reason: LeaveReason): void {
    removeParticipant(this.#ctx, room, participant, reason);
  }

  /**
   * What a join (or room switch) whose credentials passed (`privileges`, JoinCredentials) must pass before it
   * enters: the cluster's placement, bans and the room's limits. Throws the refusal's CommandError.
   */
  async #admission(data: JoinData, privileges: number): Promise<Placement> {
    if (this.#closed) throw new CommandError(SERVER_CODE.NOT_JOINED, 'connection closed');
    const roomKey = RoomRegistry.key(data.sdkAppId, data.roomId, data.useStringRoomId);
    const ref = roomRef(data.roomId, data.useStringRoomId);
    const admission = await this.#ctx.cluster?.admit(data.sdkAppId, ref);
    if (admission && !admission.ok) throw new CommandError(SERVER_CODE.WRONG_NODE, `wrong node: ${admission.reason}; schedule again`);
    if (this.#closed) throw new CommandError(SERVER_CODE.NOT_JOINED, 'connection closed');
    const ban = this.#ctx.bans.find(data.sdkAppId, ref, data.userId);
    if (ban) throw new CommandError(SERVER_CODE.USER_BANNED, `banned from this room until ${new Date(ban.until).toISOString()}${ban.reason ? `: ${ban.reason}` : ''}`);
    const role = data.trtcScene === SCENE_CODE.live ? data.trtcRole : ROLE_CODE.anchor;
    const full = capacityRefusal(this.#ctx.rooms.find(roomKey), data.trtcScene, role, data.userId, this.#ctx.config.limits);
    if (full) throw new CommandError(full.code, full.message);
    return { roomKey, ref, role, privileges };
  }

  /** Enters an admitted room: resumes the earlier session (resumeToken) or starts a new participant there. */
  #enter(data: JoinData, place: Placement): CommandMap['join']['reply'] {
    const room = this.#ctx.rooms.getOrCreate(place.roomKey);
    this.#ctx.rooms.noteJoin(data.sdkAppId, data.userId, place.ref);
    this.#joinData = data;
    const link = {
      push: <P extends PushName>(push: P, pushData: PushMap[P]) => this.#send(push, pushData),
      evict: (banned: PushMap['banned']) => this.evict(banned),
      release: () => this.release(),
    };
    const previous = room.get(data.userId);
    if (previous && data.resumeToken !== undefined && data.resumeToken === previous.sessionToken) {
      // Resume: the same session on a new connection; the others notice nothing.
      previous.link.release();
      previous.attach(link);
      previous.privileges = place.privileges;
      this.#participant = previous;
      this.#room = room;
      this.#scene = joinedScene.get(previous) ?? data.trtcScene;
      const others = room.peersOf(previous);
      this.#ctx.logger.info({ room: room.key, userId: data.userId }, 'resumed');
      return { tinyId: previous.tinyId, sessionToken: previous.sessionToken, resumed: true, userList: others, iceServers: [], audienceCount: room.roleCounts().audience, ...this.#clientIp() };
    }
    // The same userId joining again replaces the earlier session.
    previous?.link.evict({ reason: 'kick', message: 'the same userId joined the room from another client' });
    if (previous?.detached) this.#remove(previous, room, 'kick');
    const existing = room.peersOf(undefined);
    const participant = new Participant(randomUUID(), data.userId, String(++tinyIdCounter), place.role, link, randomUUID());
    participant.privileges = place.privileges;
    participant.client = { sdkVersion: data.version, terminalType: data.terminalType, ...(this.#transport.address ? { address: this.#transport.address } : {}) };
    this.#participant = participant;
    this.#room = room;
    this.#scene = data.trtcScene;
    joinedScene.set(participant, data.trtcScene);
    this.#ctx.engine.joinRoom(participant.id, room.key);
    room.add(participant);
    this.#ctx.logger.info({ room: room.key, userId: data.userId }, 'joined');
    return { tinyId: participant.tinyId, sessionToken: participant.sessionToken, resumed: false, userList: existing, iceServers: [], audienceCount: room.roleCounts().audience, ...this.#clientIp() };
  }

  readonly #handlers: { [C in Command]: Handler<C> } = {
    join: async (data) => {
      if (this.#participant || this.#joining) throw new CommandError(SERVER_CODE.ALREADY_JOINED, 'duplicate join() called');
      const protocolVersion = data.protocolVersion ?? 1;
      const { min, max } = SUPPORTED_PROTOCOL_VERSIONS;
      if (protocolVersion < min || protocolVersion > max) {
        throw new CommandError(SERVER_CODE.PROTOCOL_UNSUPPORTED, `protocol version ${protocolVersion} is not supported: this server speaks versions ${min} to ${max}`);
      }
      this.#joining = true;
      try {
        // The credentials first: a join that fails them takes no admission slot (docs/behaviour.md §4.2).
        const privileges = await this.#credentials.check(data);
        // Then, before anything costly: a storm of joins is spread out here.
        await admitJoin(this.#ctx.admission, { protocolVersion, ticket: data.admissionTicket, held: this.#queuePlace, close: (code, reason) => this.#transport.close(code, reason) });
        const place = await this.#admission(data, privileges);
        return this.#enter(data, place);
      } finally {
        this.#joining = false;
      }
    },
    'switch-room': async (data) => {
      const { participant, room } = this.#joined();
      const joinData = this.#joinData;
      if (!joinData || this.#joining) throw new CommandError(SERVER_CODE.ALREADY_JOINED, 'a join or room switch is in progress');
      if (data.useStringRoomId !== joinData.useStringRoomId) {
        throw new CommandError(SERVER_CODE.INVALID_PARAMETER, 'switchRoom: the new room must be of the same type (integer or string) as the current one');
      }
      if (RoomRegistry.key(joinData.sdkAppId, data.roomId, data.useStringRoomId) === room.key) {
        throw new CommandError(SERVER_CODE.INVALID_PARAMETER, 'switchRoom: already in this room');
      }
      const target: JoinData = {
        ...joinData, userSig: data.userSig, roomId: data.roomId, useStringRoomId: data.useStringRoomId, trtcRole: participant.role, resumeToken: undefined,
        privateMapKey: data.privateMapKey,
      };
      this.#joining = true;
      try {
        // Every refusal comes before the user leaves: a refused switch keeps the user where it was.
        const place = await this.#admission(target, await this.#credentials.check(target));
        // Not an engine matter: a user removed while its switch was admitted (kick, drop) must not enter the target room.
        if (room.get(participant.userId) !== participant) throw new CommandError(SERVER_CODE.NOT_JOINED, `${participant.userId} left the room meanwhile`);
        downlinkSignal(participant).cancel();
        this.#participant = undefined;
        this.#room = undefined;
        this.#remove(participant, room, 'normal');
        const entered = this.#enter(target, place);
        this.#ctx.logger.info({ from: room.key, to: place.roomKey, userId: participant.userId }, 'switched room');
        return { tinyId: entered.tinyId, sessionToken: entered.sessionToken, userList: entered.userList, audienceCount: entered.audienceCount };
      } finally {
        this.#joining = false;
      }
    },
    leave: async () => {
      this.#leave('normal');
      return {};
    },
    heartbeat: async () => ({}),
    ...cdnCommandHandlers(() => this.#ctx, () => this.#joined()),
    ...transcriberCommandHandlers(() => this.#ctx, () => this.#joined()),
    ...crossRoomCommandHandlers(() => this.#ctx, () => this.#joined()),
    ...mediaCommandHandlers(() => this.#ctx, { joined: () => this.#joined(), scene: () => this.#scene }),
    ...roleCommandHandlers(() => this.#ctx, {
      joined: () => this.#joined(),
      scene: () => this.#scene,
      stopPublishing: (participant, room) => stopPublishing(this.#ctx, participant, room),
    }),
  };
}
