import { useSyncExternalStore } from 'react';
import { Icon } from './Icon';
import { useT } from './i18n';
import type { ControlNotice } from './moderation/controlMessages';
import type { RoomSession } from './session';

const TEST_IDS: Record<ControlNotice['kind'], string> = { hand: 'hand-notice', muted: 'mute-notice', invited: 'invite-notice' };

/**
 * Toasts of the room-control messages: a raised hand (with "Invite on stage" for whoever is on stage), a request
 * to mute that was honoured, an invitation on stage (accept or not).
 */
export function ControlNotices({ session }: { session: RoomSession }) {
  const { notices } = useSyncExternalStore(session.control.subscribe, session.control.getSnapshot);
  const { role, handRaised } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const t = useT();
  const onStage = role === 'anchor' && !handRaised;
  return notices.map((notice) => {
    const dismiss = () => session.control.dismiss(notice.id);
    const text = notice.kind === 'hand' ? t('notice.handRaised', { userId: notice.userId })
      : notice.kind === 'muted' ? t('notice.askedToMute', { userId: notice.userId })
        : t('notice.invited', { userId: notice.userId });
    return (
      <div key={notice.id} className="toast toast-info" role="status" data-testid={TEST_IDS[notice.kind]} data-user-id={notice.userId}>
        <div>
          <span>{text}</span>
          {notice.kind === 'hand' && onStage && (
            <button type="button" className="link-button" data-testid="invite-from-notice" onClick={() => {
              session.control.invite(notice.userId);
              dismiss();
            }}>{t('people.inviteShort')}</button>
          )}
          {notice.kind === 'invited' && role === 'audience' && (
            <button type="button" className="link-button" data-testid="accept-invite" onClick={() => {
              session.switchRole();
              dismiss();
            }}>{t('notice.accept')}</button>
          )}
        </div>
        <button type="button" className="icon-button" aria-label={t('room.dismiss')} onClick={dismiss}>
          <Icon name="close" />
        </button>
      </div>
    );
  });
}
