import { ROLE_CODE, SCENE_CODE, SERVER_CODE, type CommandMap, type SubscriptionWants } from '@conclave/protocol';
import type { SignalDeps } from './signal-deps.js';
import type { AppConfig } from '../config/config.js';
import type { RoleCaller } from './role-commands.js';
import { isVisible, type Room } from '../room/room.js';
import type { Participant } from '../room/participant.js';
import { allowedWants, deniedFlagParts, maySend } from '../auth/privileges.js';
import { downlinkSignal } from './downlink-signal.js';
import { relayCustomMessage } from './custom-message.js';
import { CommandError, engineCall, engineFailure } from './command-error.js';

/** What the media commands need of their session: its room and the scene it joined with. */
export type MediaCaller = Pick<RoleCaller, 'joined' | 'scene'>;

type MediaCommand = 'publish' | 'unpublish' | 'mute-flag' | 'subscribe' | 'downlink-answer' | 'downlink-reset' | 'subscribe-change' | 'unsubscribe' | 'data-link';
type MediaHandlers = { [C in MediaCommand]: (data: CommandMap[C]['data']) => Promise<CommandMap[C]['reply']> };

const AUDIENCE_MAY_NOT_PUBLISH = "no permission to publish under live/audience, call switchRole('anchor') first";

/**
 * Whether an app takes end-to-end encrypted publishes (docs/behaviour.md §12): encrypted media is never recorded, so
 * an app whose `recording` records every room refuses them unless `allowEncryptedMedia` says true; other apps take
 * them unless it says false. `encrypted` is the client's word: this keeps a client from opting out of a mandated
 * recording by declaring it.
 */
function allowsEncryptedMedia(app: AppConfig | undefined): boolean {
  const recorded = app?.recording === 'mixed' || app?.recording === 'per-stream';
  return app?.allowEncryptedMedia ?? !recorded;
}

/**
 * After an engine call: a participant that left the room meanwhile (leave, drop, kick) must not keep
 * links the call created, so its media is removed again and the request fails.
 */
export function stillIn(ctx: Pick<SignalDeps, 'releaseParticipant'>, room: Room, ...participants: Participant[]): void {
  const gone = participants.filter((p) => room.get(p.userId) !== p);
  for (const p of gone) ctx.releaseParticipant(p.id);
  if (gone.length > 0) throw new CommandError(SERVER_CODE.NOT_JOINED, `${gone.map((p) => p.userId).join(', ')} left the room meanwhile`);
}

/** Ends the participant's uplink and tells the room it publishes nothing (unpublish, switch to audience). */
export async function stopPublishing(ctx: Pick<SignalDeps, 'engine' | 'logger'>, participant: Participant, room: Room): Promise<void> {
  participant.lastUplinkCommand = 'unpublish';
  await engineCall(ctx, 'unpublish', () => ctx.engine.unpublish(participant.id));
  if (participant.flag !== 0) {
    participant.flag = 0;
    room.announceFlags(participant);
  }
}

/** Whether the participant's last uplink command is an unpublish (read after a publish's await: not narrowed). */
function unpublishedSince(participant: Participant): boolean {
  return participant.lastUplinkCommand === 'unpublish';
}

/** A user `srcUserId` whose streams members may receive: not a hidden audience (docs/behaviour.md §3.5). */
function sourceOf(room: Room, srcUserId: string): Participant {
  const source = room.source(srcUserId);
  if (!source || !isVisible(source)) throw new CommandError(SERVER_CODE.STREAM_NOT_EXIST, `user '${srcUserId}' is not in the room`);
  return source;
}

/** What `subscriber` may receive of `source`: its privileges, and a cross-room visitor's mutes in this room. */
function wantsOf(ctx: SignalDeps, room: Room, source: Participant, subscriber: Participant, wants: SubscriptionWants): SubscriptionWants {
  return ctx.crossRooms.allowed(room, source, subscriber, allowedWants(wants, source.privileges, subscriber.privileges));
}

/**
 * The media commands of one signalling session: its uplink (publish, unpublish, mute flags), its subscriptions
 * and downlink, and its data link. Every engine failure becomes the command's refusal. `context` is read at call
 * time (the session builds its handler table before its constructor runs).
 */
export function mediaCommandHandlers(context: () => SignalDeps, caller: MediaCaller): MediaHandlers {
  const audience = (participant: Participant) => caller.scene() === SCENE_CODE.live && participant.role === ROLE_CODE.audience;
  return {
    publish: async (data) => {
      const ctx = context();
      const { participant, room } = caller.joined();
      if (audience(participant)) throw new CommandError(SERVER_CODE.PERMISSION_DENIED, AUDIENCE_MAY_NOT_PUBLISH);
      if (!maySend(participant.privileges)) {
        throw new CommandError(SERVER_CODE.PRIVILEGE_DENIED, 'privateMapKey grants no send privilege (audio, video or sub video)');
      }
      if (data.encrypted === true && !allowsEncryptedMedia(ctx.auth.app(room.sdkAppId))) {
        throw new CommandError(SERVER_CODE.ENCRYPTED_MEDIA_REFUSED, 'this app does not take end-to-end encrypted media: its rooms are recorded (or allowEncryptedMedia is false); publish without CustomEncryption');
      }
      participant.encrypted = data.encrypted === true;
      participant.lastUplinkCommand = 'publish';
      const sdp = await engineCall(ctx, 'publish', () => ctx.engine.publish(participant.id, data.sdp));
      stillIn(ctx, room, participant);
      // Switched to audience, or unpublished with nothing published since, while negotiating: the uplink goes too.
      const refusal = audience(participant) ? new CommandError(SERVER_CODE.PERMISSION_DENIED, AUDIENCE_MAY_NOT_PUBLISH)
        : unpublishedSince(participant) ? new CommandError(SERVER_CODE.MEDIA_ERROR, 'publish cancelled: an unpublish came while it was negotiated')
          : undefined;
      if (refusal) {
        await engineCall(ctx, 'unpublish', () => ctx.engine.unpublish(participant.id));
        throw refusal;
      }
      return { sdp };
    },
    unpublish: async () => {
      const { participant, room } = caller.joined();
      await stopPublishing(context(), participant, room);
      return {};
    },
    'mute-flag': async (data) => {
      const { participant, room } = caller.joined();
      if (audience(participant) && data.flag !== 0) throw new CommandError(SERVER_CODE.PERMISSION_DENIED, AUDIENCE_MAY_NOT_PUBLISH);
      const denied = deniedFlagParts(participant.privileges, data.flag);
      if (denied.length > 0) throw new CommandError(SERVER_CODE.PRIVILEGE_DENIED, `privateMapKey does not grant sending ${denied.join(', ')}`);
      if (participant.flag !== data.flag) {
        participant.flag = data.flag;
        room.announceFlags(participant);
      }
      return {};
    },
    subscribe: async (data) => {
      const ctx = context();
      const { participant, room } = caller.joined();
      const source = sourceOf(room, data.srcUserId);
      if (source === participant) throw new CommandError(SERVER_CODE.INVALID_PARAMETER, 'cannot subscribe to yourself');
      if (source.encrypted && data.decrypts !== true) {
        throw new CommandError(SERVER_CODE.PERMISSION_DENIED, `${source.userId} publishes end-to-end encrypted media: start CustomEncryption with the room's key to receive it`);
      }
      const mids: CommandMap['subscribe']['reply'] = await engineCall(ctx, 'subscribe', () =>
        ctx.engine.subscribe(participant.id, source.id, wantsOf(ctx, room, source, participant, data), downlinkSignal(participant).negotiate));
      stillIn(ctx, room, participant);
      if (room.source(source.userId) !== source) throw new CommandError(SERVER_CODE.NOT_JOINED, `${source.userId} left the room meanwhile`);
      if (!isVisible(source)) {
        // It became an audience meanwhile: its other subscriptions ended then, the one just made ends now.
        await ctx.engine.unsubscribe(participant.id, source.id).catch((error: unknown) => engineFailure(ctx, error, 'unsubscribe'));
        throw new CommandError(SERVER_CODE.STREAM_NOT_EXIST, `${source.userId} became an audience meanwhile`);
      }
      participant.subscriptions.add(source.userId);
      return mids;
    },
    'downlink-answer': async (data) => {
      const { participant } = caller.joined();
      if (!downlinkSignal(participant).answer(data.seq, data.sdp)) {
        throw new CommandError(SERVER_CODE.INVALID_PARAMETER, `downlink-answer: no downlink offer ${data.seq} is waiting for an answer`);
      }
      return {};
    },
    'downlink-reset': async () => {
      const ctx = context();
      const { participant } = caller.joined();
      downlinkSignal(participant).cancel();
      participant.subscriptions.clear();
      await engineCall(ctx, 'downlink-reset', () => ctx.engine.resetDownlink(participant.id));
      return {};
    },
    'subscribe-change': async (data) => {
      const ctx = context();
      const { participant, room } = caller.joined();
      const source = sourceOf(room, data.srcUserId);
      await engineCall(ctx, 'subscribe-change', () => ctx.engine.updateSubscription(participant.id, source.id, wantsOf(ctx, room, source, participant, data)));
      return {};
    },
    unsubscribe: async (data) => {
      const ctx = context();
      const { participant, room } = caller.joined();
      const source = room.source(data.srcUserId);
      participant.subscriptions.delete(data.srcUserId);
      if (source) await engineCall(ctx, 'unsubscribe', () => ctx.engine.unsubscribe(participant.id, source.id));
      return {};
    },
    'data-link': async (data) => {
      const ctx = context();
      const { participant, room } = caller.joined();
      const sdp = await engineCall(ctx, 'data-link', () => ctx.dataLinks.open(participant.id, data.sdp, (bytes) => relayCustomMessage(ctx, participant, room, bytes)));
      stillIn(ctx, room, participant);
      return { sdp };
    },
  };
}
