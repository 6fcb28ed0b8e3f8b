import { ROLE_CODE, SCENE_CODE, SERVER_CODE, type CommandMap, type SubscriptionWants } from '@conclave/protocol';
import type { HandleCloseReason } from '../engine/media-engine.js';
import type { SignalDeps } from './signal-deps.js';
import type { AppConfig } from '../config/config.js';
import type { RoleCaller } from './role-commands.js';
import { isVisible, type Room } from '../room/room.js';
import type { Participant } from '../room/participant.js';
import { allowedWants, deniedFlagParts, maySend } from '../auth/privileges.js';
import { downlinkSignal } from './downlink-signal.js';
import { relayCustomMessage } from './custom-message.js';
import { CommandError, engineCall } from './command-error.js';

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
 * Why a publish whose uplink the engine handed back closed is refused: the user left meanwhile (leave, drop, kick:
 * its engine record closed what the publish made), or an unpublish came while it was negotiated — its own, or
 * the one of a switch to audience.
 */
function closedPublish(reason: HandleCloseReason | undefined, audience: boolean): CommandError {
  if (reason === 'left' || reason === 'room-ended') return new CommandError(SERVER_CODE.NOT_JOINED, 'left the room while the publish was negotiated');
  if (reason === 'unpublished' && audience) return new CommandError(SERVER_CODE.PERMISSION_DENIED, AUDIENCE_MAY_NOT_PUBLISH);
  if (reason === 'unpublished') return new CommandError(SERVER_CODE.MEDIA_ERROR, 'publish cancelled: an unpublish came while it was negotiated');
  return new CommandError(SERVER_CODE.MEDIA_ERROR, `publish cancelled: its uplink closed while it was negotiated (${reason ?? 'closed'})`);
}

/** Why a subscription whose handle the engine handed back closed is refused. */
function closedSubscription(reason: HandleCloseReason | undefined, sourceUserId: string): CommandError {
  // 'unshared': a cross-room visitor whose link ended meanwhile is no longer in this room either.
  if (reason === 'source-left' || reason === 'unshared') return new CommandError(SERVER_CODE.NOT_JOINED, `${sourceUserId} left the room meanwhile`);
  if (reason === 'left' || reason === 'room-ended') return new CommandError(SERVER_CODE.NOT_JOINED, 'left the room while subscribing');
  return new CommandError(SERVER_CODE.MEDIA_ERROR, `subscription to ${sourceUserId} closed while it was made (${reason ?? 'closed'})`);
}

/**
 * Ends the participant's uplink and tells the room it publishes nothing (unpublish, switch to audience). A publish
 * still negotiating is overtaken too: its uplink comes back closed (MediaEngine.unpublish).
 */
export async function stopPublishing(ctx: Pick<SignalDeps, 'engine' | 'logger'>, participant: Participant, room: Room): Promise<void> {
  await engineCall(ctx, 'unpublish', () => ctx.engine.unpublish(participant.id));
  if (participant.flag !== 0) {
    participant.flag = 0;
    room.announceFlags(participant);
  }
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
      const uplink = await engineCall(ctx, 'publish', () => ctx.engine.publish(participant.id, data.sdp));
      // Left, unpublished or switched to audience while negotiating: the engine closed the uplink already.
      if (uplink.closed) throw closedPublish(uplink.closeReason, audience(participant));
      return { sdp: uplink.answerSdp };
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
      const subscription = await engineCall(ctx, 'subscribe', () =>
        ctx.engine.subscribe(participant.id, source.id, wantsOf(ctx, room, source, participant, data), downlinkSignal(participant).negotiate,
          { opaque: source.encrypted || data.decrypts === true }));
      // Either side left meanwhile: the engine closed the subscription already. One 'replaced' goes on under the
      // handle of a later subscribe to the same source (sent at once), which records it.
      const replaced = subscription.closeReason === 'replaced';
      if (subscription.closed && !replaced) throw closedSubscription(subscription.closeReason, source.userId);
      if (!isVisible(source)) {
        // A signalling rule, not the engine's: a hidden audience is received by nobody (docs/behaviour.md §3.5). It
        // became one meanwhile: its other subscriptions ended then, the one just made ends now.
        await subscription.close();
        throw new CommandError(SERVER_CODE.STREAM_NOT_EXIST, `${source.userId} became an audience meanwhile`);
      }
      if (!replaced) participant.receive(source.userId, subscription);
      return subscription.mids;
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
      // The engine's reset closes the subscriptions' handles: they leave participant.subscriptions.
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
      // DataLinks.open refuses (not-joined) a link whose user left while it was answered: nothing to check here.
      const sdp = await engineCall(ctx, 'data-link', () => ctx.dataLinks.open(participant.id, data.sdp, (bytes) => relayCustomMessage(ctx, participant, room, bytes)));
      return { sdp };
    },
  };
}
