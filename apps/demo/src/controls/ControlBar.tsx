import { useSyncExternalStore } from 'react';
import { DevicePicker } from '../DevicePickers';
import { Icon } from '../Icon';
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
  const { camera, mic, role, switchingRole, remoteUsers } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const media = useSyncExternalStore(session.localMedia.subscribe, session.localMedia.getSnapshot);
  const live = session.params.scene === 'live';
  const audience = live && role === 'audience';
  const micOn = wanted(mic);
  const cameraOn = wanted(camera);
  const screenBusy = media.screen === 'starting' || media.screen === 'stopping';
  const cannot = audience ? 'The audience cannot publish: go on stage first' : undefined;

  return (
    <nav className="control-bar" aria-label="Meeting controls" data-testid="control-bar">
      <div className="bar-group bar-main">
        <div className="split">
          <button type="button" className={`bar-button${micOn ? '' : ' is-off'}`} data-testid="toggle-mic" data-state={mic}
            aria-pressed={micOn} aria-busy={mic === 'starting' || mic === 'stopping'} disabled={audience}
            aria-keyshortcuts={SHORTCUTS.mic} title={cannot ?? `${micOn ? 'Turn off' : 'Turn on'} microphone (${SHORTCUTS.mic})`}
            aria-label="Microphone" onClick={() => session.toggleMic()}>
            <Icon name={micOn ? 'mic' : 'mic-off'} />
          </button>
          <Popover label="Microphone and speaker settings" testId="mic-menu">
            <DevicePicker media={session.localMedia} kind="microphone" />
            <DevicePicker media={session.localMedia} kind="speaker" />
            <button type="button" className="button button-secondary" data-testid="mute-mic" aria-pressed={media.audioMuted}
              disabled={audience} onClick={() => void session.localMedia.toggleAudioMute()}>
              {media.audioMuted ? 'Unmute (keep publishing)' : 'Mute (keep publishing)'}
            </button>
          </Popover>
        </div>
        <div className="split">
          <button type="button" className={`bar-button${cameraOn ? '' : ' is-off'}`} data-testid="toggle-camera" data-state={camera}
            aria-pressed={cameraOn} aria-busy={camera === 'starting' || camera === 'stopping'} disabled={audience}
            aria-keyshortcuts={SHORTCUTS.camera} title={cannot ?? `${cameraOn ? 'Turn off' : 'Turn on'} camera (${SHORTCUTS.camera})`}
            aria-label="Camera" onClick={() => session.toggleCamera()}>
            <Icon name={cameraOn ? 'camera' : 'camera-off'} />
          </button>
          <Popover label="Camera settings" testId="camera-menu">
            <DevicePicker media={session.localMedia} kind="camera" />
            <button type="button" className="button button-secondary" data-testid="mute-camera" aria-pressed={media.videoMuted}
              disabled={audience} onClick={() => void session.localMedia.toggleVideoMute()}>
              {media.videoMuted ? 'Show video (keep publishing)' : 'Hide video (keep publishing)'}
            </button>
          </Popover>
        </div>
        <button type="button" className={`bar-button${media.screen === 'on' ? ' is-active' : ''}`} data-testid="toggle-screen"
          data-state={media.screen} aria-pressed={media.screen === 'on'} aria-busy={screenBusy} disabled={audience || screenBusy}
          aria-keyshortcuts={SHORTCUTS.screen} aria-label="Share screen"
          title={cannot ?? `${media.screen === 'on' ? 'Stop sharing' : 'Share your screen'} (${SHORTCUTS.screen})`}
          onClick={() => void session.localMedia.toggleScreen()}>
          <Icon name="screen" />
        </button>
        <EffectsMenu session={session} disabled={audience} />
        {live && (
          <button type="button" className={`bar-button bar-wide${audience ? '' : ' is-active'}`} data-testid="switch-role"
            onClick={() => session.switchRole()} disabled={switchingRole} aria-busy={switchingRole}>
            <Icon name="hand" />
            <span>{audience ? 'Go on stage' : 'Leave stage'}</span>
          </button>
        )}
        <button type="button" className="bar-button bar-leave" data-testid="leave-button" onClick={onLeave} disabled={leaving}
          aria-busy={leaving} aria-label={leaving ? 'Leaving…' : 'Leave'} title="Leave the room">
          <Icon name="phone-off" />
        </button>
      </div>
      <div className="bar-group bar-side">
        <button type="button" className={`bar-button${panel === 'chat' ? ' is-active' : ''}`} data-testid="toggle-chat"
          aria-pressed={panel === 'chat'} aria-keyshortcuts={SHORTCUTS.chat} title={`Chat (${SHORTCUTS.chat})`}
          aria-label={unread > 0 ? `Chat, ${unread} unread` : 'Chat'} onClick={() => togglePanel('chat')}>
          <Icon name="chat" />
          {unread > 0 && <span className="badge" data-testid="chat-badge" aria-hidden="true">{unread > 99 ? '99+' : unread}</span>}
        </button>
        <button type="button" className={`bar-button${panel === 'people' ? ' is-active' : ''}`} data-testid="toggle-people"
          aria-pressed={panel === 'people'} aria-keyshortcuts={SHORTCUTS.people} title={`Participants (${SHORTCUTS.people})`}
          aria-label={`Participants, ${remoteUsers.length + 1}`} onClick={() => togglePanel('people')}>
          <Icon name="people" />
          <span className="badge badge-quiet" aria-hidden="true">{remoteUsers.length + 1}</span>
        </button>
        <button type="button" className={`bar-button${panel === 'settings' ? ' is-active' : ''}`} data-testid="toggle-settings"
          aria-pressed={panel === 'settings'} aria-keyshortcuts={SHORTCUTS.settings} title={`Settings (${SHORTCUTS.settings})`}
          aria-label="Settings" onClick={() => togglePanel('settings')}>
          <Icon name="settings" />
        </button>
      </div>
    </nav>
  );
}
