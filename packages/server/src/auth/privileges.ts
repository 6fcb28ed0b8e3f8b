import { FLAG, type SubscriptionWants } from '@conclave/protocol';
import { PRIVILEGE, hasPrivilege } from '@conclave/usersig';

/** Privilege bits that allow sending anything. */
export const SEND_PRIVILEGES = PRIVILEGE.SEND_AUDIO | PRIVILEGE.SEND_VIDEO | PRIVILEGE.SEND_SUB_VIDEO;

/** Which privilege each publish flag bit needs (the small stream is part of the main video). */
const FLAG_NEEDS: readonly { bit: number; privilege: number; what: string }[] = [
  { bit: FLAG.AUDIO, privilege: PRIVILEGE.SEND_AUDIO, what: 'audio' },
  { bit: FLAG.VIDEO, privilege: PRIVILEGE.SEND_VIDEO, what: 'video' },
  { bit: FLAG.SMALL, privilege: PRIVILEGE.SEND_VIDEO, what: 'small video' },
  { bit: FLAG.AUX, privilege: PRIVILEGE.SEND_SUB_VIDEO, what: 'sub video (screen)' },
];

/** What a publish flag asks to send that the privileges do not allow, e.g. ['video']; empty when allowed. */
export function deniedFlagParts(privileges: number, flag: number): string[] {
  return FLAG_NEEDS.filter((need) => (flag & need.bit) !== 0 && !hasPrivilege(privileges, need.privilege)).map((need) => need.what);
}

/** True when the privileges allow sending at least one kind of media. */
export function maySend(privileges: number): boolean {
  return (privileges & SEND_PRIVILEGES) !== 0;
}


/**
 * What actually flows on a subscription: only what the source may send and the subscriber may receive,
 * so media a privateMapKey does not allow never reaches anyone even if a client sends it.
 */
export function allowedWants<W extends SubscriptionWants>(wants: W, source: number, subscriber: number): W {
  const can = (send: number, recv: number) => hasPrivilege(source, send) && hasPrivilege(subscriber, recv);
  return {
    ...wants,
    audio: wants.audio && can(PRIVILEGE.SEND_AUDIO, PRIVILEGE.RECV_AUDIO),
    bigVideo: wants.bigVideo && can(PRIVILEGE.SEND_VIDEO, PRIVILEGE.RECV_VIDEO),
    smallVideo: wants.smallVideo && can(PRIVILEGE.SEND_VIDEO, PRIVILEGE.RECV_VIDEO),
    auxVideo: wants.auxVideo && can(PRIVILEGE.SEND_SUB_VIDEO, PRIVILEGE.RECV_SUB_VIDEO),
  };
}
