import { randomUUID } from 'node:crypto';
import { FLAG, ROLE_CODE, SCENE_CODE, type LeaveReason } from '@conclave/protocol';
import { EngineError } from '../engine/media-engine.js';
import { HttpError } from '../http/respond.js';
import { roomRef, type RoomId } from '../ids/room-ref.js';
import { capacityRefusal } from '../room/capacity.js';
import { removeParticipant } from '../room/eviction.js';
import { Participant } from '../room/participant.js';
import { RoomRegistry, type Room } from '../room/room.js';
import { toClientAnswer, toUplinkOffer } from './uplink-sdp.js';
import type { MediaRights } from './media-rights.js';
import { engineStatus } from './whep-errors.js';
import type { WhepDeps } from './whep-deps.js';

/** tinyIds of WHIP publishers: numeric like the signalling's, in a range of their own. */
let tinyIdCounter = 2_000_000_000;

/** The publish flag an offer earns: audio and main video for the m-lines it sends. */
export function offerFlag(offerSdp: string): number {
  // Port 0 rejects an m-line unless it is bundle-only (RFC 9143: GStreamer offers its second m-line so).
  const sends = (kind: string) => offerSdp.split(/\r?\n(?=m=)/).some((m) => m.startsWith(`m=${kind} `) && !/a=(recvonly|inactive)/.test(m) &&
    (!/^m=\S+ 0 /.test(m) || /a=bundle-only/.test(m)));
  return (sends('audio') ? FLAG.AUDIO : 0) | (sends('video') ? FLAG.VIDEO : 0);
}

/**
 * A WHIP publisher: a room participant without a signalling connection. It enters as an anchor of the rtc scene
 * (the others get peer-join, then its publish flags: audio and video available), publishes the client's offer
 * through the engine like any user, and leaves on DELETE or when the server removes it (kick, ban, dismissal,
 * the same userId joining elsewhere).
 */
export class WhipPublisher {
  readonly participant: Participant;
  readonly room: Room;
  #ended = false;
  readonly #deps: WhepDeps;

  private constructor(deps: WhepDeps, room: Room, participant: Participant) {
    this.#deps = deps;
    this.room = room;
    this.participant = participant;
  }

  /**
   * Enters `room` as the token's user (its bans and billing checked already: media-rights.ts), with the token's
   * privileges, and publishes `offerSdp`; resolves with the publisher and the engine's answer.
   */
  static async start(deps: WhepDeps, sdkAppId: number, room: RoomId, rights: MediaRights, offerSdp: string, onEnded: () => void): Promise<{ publisher: WhipPublisher; answer: string }> {
    const { userId } = rights;
    const uplink = toUplinkOffer(offerSdp);
    const key = RoomRegistry.key(sdkAppId, room.roomId, room.isString);
    const full = capacityRefusal(deps.rooms.find(key), SCENE_CODE.rtc, ROLE_CODE.anchor, userId, deps.config.limits);
    if (full) throw new HttpError(403, full.code, full.message);
    const target = deps.rooms.getOrCreate(key);
    deps.rooms.noteJoin(sdkAppId, userId, roomRef(room.roomId, room.isString));
    const made: { publisher?: WhipPublisher } = {};
    const participant = new Participant(randomUUID(), userId, String(++tinyIdCounter), ROLE_CODE.anchor, {
      push: () => undefined,
      evict: () => made.publisher?.ended(onEnded),
      release: () => undefined,
    }, randomUUID());
    // What the others receive of it is ruled by its token's SEND bits, as for any publisher.
    participant.privileges = rights.privileges;
    const publisher = new WhipPublisher(deps, target, participant);
    made.publisher = publisher;
    // The same userId entering again replaces the earlier session, as a join does.
    const previous = target.get(userId);
    if (previous) {
      previous.link.evict({ reason: 'kick', message: 'the same userId published over WHIP' });
      if (target.get(userId) === previous) removeParticipant(deps, target, previous, 'kick');
    }
    deps.engine.joinRoom(participant.id, target.key);
    target.add(participant);
    deps.logger.info({ room: target.key, userId }, 'WHIP publisher joined');
    try {
      const published = await deps.engine.publish(participant.id, uplink.offer);
      // Removed while publishing (a kick, a DELETE): the engine closed the uplink already.
      if (published.closed) throw new EngineError('not-joined', `${userId} left the room while publishing`);
      const answer = toClientAnswer(published.answerSdp, uplink.plan);
      participant.flag = offerFlag(offerSdp);
      target.announceFlags(participant);
      return { publisher, answer };
    } catch (error) {
      publisher.stop();
      throw engineStatus(error, 'publish');
    }
  }

  /** Leaves the room (DELETE; 'kick' when the server ends it, e.g. a ban). Idempotent. */
  stop(reason: LeaveReason = 'normal'): void {
    if (this.#ended) return;
    this.#ended = true;
    removeParticipant(this.#deps, this.room, this.participant, reason);
  }

  /** The server removed the participant (the caller removes it from the room): forget the resource. */
  ended(onEnded: () => void): void {
    this.#ended = true;
    onEnded();
  }
}
