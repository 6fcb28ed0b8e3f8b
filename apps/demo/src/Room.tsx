import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ControlBar, SHORTCUTS, type PanelName } from './controls/ControlBar';
import { Icon } from './Icon';
import { explainError } from './errors';
import { useLang, useT, type MessageKey } from './i18n';
import { ControlNotices } from './ControlNotices';
import { inviteLink, roomLabel } from './joinParams';
import { NetworkBars } from './NetworkBars';
import { ChatPanel } from './panels/ChatPanel';
import { ParticipantsPanel } from './panels/ParticipantsPanel';
import { SettingsPanel } from './panels/SettingsPanel';
import { SidePanel } from './panels/SidePanel';
import type { RoomSession } from './session';
import { isPublishing, Stage } from './stage/Stage';
import './room.css';

export interface RoomProps {
  readonly session: RoomSession;
  /** Called after exitRoom and destroy. */
  readonly onLeft: () => void;
}

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
const CONNECTION_WORD: Readonly<Record<string, MessageKey>> = {
  DISCONNECTED: 'conn.DISCONNECTED', CONNECTING: 'conn.CONNECTING', CONNECTED: 'conn.CONNECTED', RECONNECTING: 'conn.RECONNECTING',
};

/** The room: the stage filling the window, a side panel (chat, participants, settings), the control bar. */
export function Room({ session, onLeft }: RoomProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const chat = useSyncExternalStore(session.chat.subscribe, session.chat.getSnapshot);
  const media = useSyncExternalStore(session.localMedia.subscribe, session.localMedia.getSnapshot);
  const [leaving, setLeaving] = useState(false);
  const [panel, setPanel] = useState<PanelName | null>(null);
  const [pinned, setPinned] = useState<string | null>(null);
  const [showStats, setShowStats] = useState(false);
  const [seenChat, setSeenChat] = useState(0);
  const t = useT();
  const lang = useLang();
  const { params } = session;
  const room = roomLabel(params.room);
  const link = useMemo(() => inviteLink(params.sdkAppId, params.room, window.location, params.scene), [params]);
  const { connectionState, notices, role, handRaised } = snapshot;
  const live = params.scene === 'live';
  // The audience (hidden from the user list: the server's count, me included) and anchors publishing nothing.
  const viewers = snapshot.audienceCount + snapshot.remoteUsers.filter((user) => !isPublishing(user)).length + (handRaised ? 1 : 0);

  useEffect(() => {
    const previous = document.title;
    document.title = t('room.docTitle', { room });
    return () => {
      document.title = previous;
    };
  }, [room, t]);

  // Lines that arrived while the chat was closed are unread; opening it reads them all.
  const lastLine = chat.length > 0 ? chat[chat.length - 1].id : 0;
  useEffect(() => {
    if (panel === 'chat') setSeenChat(lastLine);
  }, [panel, lastLine]);
  const unread = chat.filter((line) => !line.mine && line.id > seenChat).length;

  const togglePanel = useCallback((name: PanelName) => setPanel((open) => (open === name ? null : name)), []);
  // Closing a panel gives the focus back to its button, so the keyboard stays in the bar (and shortcuts work).
  const closePanel = useCallback(() => {
    setPanel((open) => {
      if (open) document.querySelector<HTMLElement>(`[data-testid="toggle-${open}"]`)?.focus();
      return null;
    });
  }, []);

  const leave = async () => {
    if (leaving) return;
    setLeaving(true);
    await session.leave();
    onLeft();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      const target = event.target as HTMLElement | null;
      if (target && (TYPING.has(target.tagName) || target.isContentEditable)) {
        if (event.key === 'Escape' && panel) closePanel();
        return;
      }
      const key = event.key.toUpperCase();
      const { role: now, handRaised: hand } = session.getSnapshot();
      const audience = live && (now === 'audience' || hand);
      if (key === SHORTCUTS.mic && !audience) session.toggleMic();
      else if (key === SHORTCUTS.camera && !audience) session.toggleCamera();
      else if (key === SHORTCUTS.screen && !audience) void session.localMedia.toggleScreen();
      else if (key === SHORTCUTS.chat) togglePanel('chat');
      else if (key === SHORTCUTS.people) togglePanel('people');
      else if (key === SHORTCUTS.settings) togglePanel('settings');
      else if (event.key === 'Escape' && panel) closePanel();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [session, panel, live, togglePanel, closePanel]);

  const troubled = connectionState === 'RECONNECTING' || connectionState === 'DISCONNECTED';
  return (
    <div className={`room${panel ? ' with-panel' : ''}`} data-testid="room-view">
      <div className="room-info">
        <span className="room-name">{t('room.room')} <strong data-testid="room-id">{room}</strong></span>
        <span className="me">{t('room.as')} <strong data-testid="my-userid">{params.userId}</strong></span>
        {live && (
          <span className="role-badge" data-testid="my-role" data-role={handRaised ? 'hand' : role}>
            {handRaised ? t('room.handUp') : role === 'anchor' ? t('room.onStage') : t('room.audience')}
          </span>
        )}
        {live && (
          <span className="viewers" title={t('room.watchingTitle')}>
            <strong data-testid="viewer-count">{viewers}</strong> {t('room.watching')}
          </span>
        )}
        <span className="connection" title={t('room.connectionTitle')}>
          <span className={`state-dot state-${connectionState.toLowerCase()}`} aria-hidden="true" />
          <span className="visually-hidden">{t('room.connection')}</span>
          <span data-testid="connection-state" data-state={connectionState}>{CONNECTION_WORD[connectionState] ? t(CONNECTION_WORD[connectionState]) : connectionState.toLowerCase()}</span>
        </span>
        <NetworkBars stats={session.stats} />
        {media.screen === 'on' && (
          <span className="presenting" data-testid="presenting">
            {t('room.sharing')}
            <button type="button" className="link-button" onClick={() => void session.localMedia.toggleScreen()}>{t('room.stop')}</button>
          </span>
        )}
      </div>

      {troubled && !leaving && (
        <div className="banner" role="status" data-testid="connection-banner">
          {connectionState === 'RECONNECTING' ? t('room.reconnecting') : t('room.disconnected')}
        </div>
      )}

      <div className="toasts" aria-live="assertive">
        {notices.map((notice) => (
          <div key={notice.id} className="toast" role="alert" data-testid="room-error"
            data-code={notice.error.code} data-extra-code={notice.error.extraCode}>
            <div>
              <strong>{t(notice.title, notice.vars)}:</strong> <span className="error-message">{explainError(notice.error, notice.device, lang)}</span>
            </div>
            <button type="button" className="icon-button" aria-label={t('room.dismiss')} onClick={() => session.dismissNotice(notice.id)}>
              <Icon name="close" />
            </button>
          </div>
        ))}
        {media.error && <div className="toast" role="alert" data-testid="media-error">{media.error}</div>}
        <ControlNotices session={session} />
      </div>

      <div className="room-body">
        <Stage session={session} pinned={pinned} setPinned={setPinned} showStats={showStats} />
        <SidePanel title={t('room.chat')} testId="chat-side" open={panel === 'chat'} onClose={closePanel}>
          <ChatPanel chat={session.chat} canSend={!(live && role === 'audience')} active={panel === 'chat'} />
        </SidePanel>
        <SidePanel title={t('room.participants')} testId="people-side" open={panel === 'people'} onClose={closePanel}>
          <ParticipantsPanel session={session} pinned={pinned} setPinned={setPinned} />
        </SidePanel>
        <SidePanel title={t('room.settings')} testId="settings-side" open={panel === 'settings'} onClose={closePanel}>
          <SettingsPanel session={session} link={link} showStats={showStats} setShowStats={setShowStats} />
        </SidePanel>
      </div>

      <ControlBar session={session} panel={panel} togglePanel={togglePanel} unread={unread} leaving={leaving} onLeave={() => void leave()} />
    </div>
  );
}
