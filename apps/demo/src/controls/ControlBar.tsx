import { useSyncExternalStore } from 'react';
import { DevicePicker } from '../DevicePickers';
import { Icon } from '../Icon';
import { useT } from '../i18n';
import type { MediaState, RoomSession } from '../session';
import { EffectsMenu } from './EffectsMenu';
import { Popover } from './Popover';
import './controls.css';

export type PanelName = 'chat' | 'people' | 'settings';

export interface ControlBarProps {
  readonly session: RoomSession;
  readonly panel: PanelName | null;
  readonly togglePanel: (panel: PanelName) => void;
  readonly unread: number;
  readonly leaving: boolean;
  readonly onLeave: () => void;
}

const wanted = (state: MediaState) => state === 'on' || state === 'starting';

/** The shortcut of each control, shown in its title and announced with aria-keyshortcuts. */
export const SHORTCUTS = { mic: 'M', camera: 'V', screen: 'D', chat: 'C', people: 'P', settings: 'S' } as const;

/**
 * The bar at the bottom of the room: microphone and camera (each with its device menu), screen share,
 * live-room stage switch, leave; then chat (with an unread badge), participants and settings.
 */
export function ControlBar({ session, panel, togglePanel, unread, leaving, onLeave }: ControlBarProps) {
  const { camera, mic, role, switchingRole, remoteUsers, handRaised } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const t = useT();
  const media = useSyncExternalStore(session.localMedia.subscribe, session.localMedia.getSnapshot);
  const live = session.params.scene === 'live';
  // A raised hand is an anchor who publishes nothing yet: still in the audience for the controls.
  const audience = live && (role === 'audience' || handRaised);
  const micOn = wanted(mic);
  const cameraOn = wanted(camera);
  const screenBusy = media.screen === 'starting' || media.screen === 'stopping';
  const cannot = audience ? t('bar.cannot') : undefined;

  return (
    <nav className="control-bar" aria-label={t('bar.label')} data-testid="control-bar">
      <div className="bar-group bar-main">
        <div className="split">
          <button type="button" className={`bar-button${micOn ? '' : ' is-off'}`} data-testid="toggle-mic" data-state={mic}
            aria-pressed={micOn} aria-busy={mic === 'starting' || mic === 'stopping'} disabled={audience}
            aria-keyshortcuts={SHORTCUTS.mic} title={cannot ?? `${micOn ? t('bar.turnOffMic') : t('bar.turnOnMic')} (${SHORTCUTS.mic})`}
            aria-label={t('bar.microphone')} onClick={() => session.toggleMic()}>
            <Icon name={micOn ? 'mic' : 'mic-off'} />
          </button>
          <Popover label={t('bar.micMenu')} testId="mic-menu">
            <DevicePicker media={session.localMedia} kind="microphone" />
            <DevicePicker media={session.localMedia} kind="speaker" />
            <button type="button" className="button button-secondary" data-testid="mute-mic" aria-pressed={media.audioMuted}
              disabled={audience} onClick={() => void session.localMedia.toggleAudioMute()}>
              {media.audioMuted ? t('bar.unmute') : t('bar.mute')}
            </button>
          </Popover>
        </div>
        <div className="split">
          <button type="button" className={`bar-button${cameraOn ? '' : ' is-off'}`} data-testid="toggle-camera" data-state={camera}
            aria-pressed={cameraOn} aria-busy={camera === 'starting' || camera === 'stopping'} disabled={audience}
            aria-keyshortcuts={SHORTCUTS.camera} title={cannot ?? `${cameraOn ? t('bar.turnOffCamera') : t('bar.turnOnCamera')} (${SHORTCUTS.camera})`}
            aria-label={t('bar.camera')} onClick={() => session.toggleCamera()}>
            <Icon name={cameraOn ? 'camera' : 'camera-off'} />
          </button>
          <Popover label={t('bar.cameraMenu')} testId="camera-menu">
            <DevicePicker media={session.localMedia} kind="camera" />
            <button type="button" className="button button-secondary" data-testid="mute-camera" aria-pressed={media.videoMuted}
              disabled={audience} onClick={() => void session.localMedia.toggleVideoMute()}>
              {media.videoMuted ? t('bar.showVideo') : t('bar.hideVideo')}
            </button>
          </Popover>
        </div>
        <button type="button" className={`bar-button${media.screen === 'on' ? ' is-active' : ''}`} data-testid="toggle-screen"
          data-state={media.screen} aria-pressed={media.screen === 'on'} aria-busy={screenBusy} disabled={audience || screenBusy}
          aria-keyshortcuts={SHORTCUTS.screen} aria-label={t('bar.share')}
          title={cannot ?? `${media.screen === 'on' ? t('bar.stopShare') : t('bar.startShare')} (${SHORTCUTS.screen})`}
          onClick={() => void session.localMedia.toggleScreen()}>
          <Icon name="screen" />
        </button>
        <EffectsMenu session={session} disabled={audience} />
        {live && (
          <button type="button" className={`bar-button bar-wide${audience ? '' : ' is-active'}`} data-testid="switch-role"
            onClick={() => session.switchRole()} disabled={switchingRole} aria-busy={switchingRole}>
            <Icon name="hand" />
            <span>{audience ? t('bar.goOnStage') : t('bar.leaveStage')}</span>
          </button>
        )}
        {live && (role === 'audience' || handRaised) && (
          <button type="button" className={`bar-button bar-wide${handRaised ? ' is-active' : ''}`} data-testid="raise-hand"
            aria-pressed={handRaised} onClick={() => session.toggleHand()} disabled={switchingRole} aria-busy={switchingRole}>
            <Icon name="hand" />
            <span>{handRaised ? t('bar.lowerHand') : t('bar.raiseHand')}</span>
          </button>
        )}
        <button type="button" className="bar-button bar-leave" data-testid="leave-button" onClick={onLeave} disabled={leaving}
          aria-busy={leaving} aria-label={leaving ? t('bar.leaving') : t('bar.leave')} title={t('bar.leaveTitle')}>
          <Icon name="phone-off" />
        </button>
      </div>
      <div className="bar-group bar-side">
        <button type="button" className={`bar-button${panel === 'chat' ? ' is-active' : ''}`} data-testid="toggle-chat"
          aria-pressed={panel === 'chat'} aria-keyshortcuts={SHORTCUTS.chat} title={`${t('room.chat')} (${SHORTCUTS.chat})`}
          aria-label={unread > 0 ? t('bar.chatUnread', { count: unread }) : t('room.chat')} onClick={() => togglePanel('chat')}>
          <Icon name="chat" />
          {unread > 0 && <span className="badge" data-testid="chat-badge" aria-hidden="true">{unread > 99 ? '99+' : unread}</span>}
        </button>
        <button type="button" className={`bar-button${panel === 'people' ? ' is-active' : ''}`} data-testid="toggle-people"
          aria-pressed={panel === 'people'} aria-keyshortcuts={SHORTCUTS.people} title={`${t('room.participants')} (${SHORTCUTS.people})`}
          aria-label={t('bar.participantsCount', { count: remoteUsers.length + 1 })} onClick={() => togglePanel('people')}>
          <Icon name="people" />
          <span className="badge badge-quiet" aria-hidden="true">{remoteUsers.length + 1}</span>
        </button>
        <button type="button" className={`bar-button${panel === 'settings' ? ' is-active' : ''}`} data-testid="toggle-settings"
          aria-pressed={panel === 'settings'} aria-keyshortcuts={SHORTCUTS.settings} title={`${t('room.settings')} (${SHORTCUTS.settings})`}
          aria-label={t('room.settings')} onClick={() => togglePanel('settings')}>
          <Icon name="settings" />
        </button>
      </div>
    </nav>
  );
}
