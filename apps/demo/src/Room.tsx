import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ChatPanel } from './ChatPanel';
import { DevicePickers } from './DevicePickers';
import { PublishControls } from './PublishControls';
import { Icon } from './Icon';
import { NetworkBars } from './NetworkBars';
import { SpeakingIndicator } from './SpeakingIndicator';
import { StatsOverlay } from './StatsOverlay';
import { InviteLink } from './InviteLink';
import { inviteLink, roomLabel } from './joinParams';
import { RemoteTile } from './RemoteTile';
import type { MediaState, RoomSession } from './session';
import { VideoTile } from './VideoTile';

export interface RoomProps {
  readonly session: RoomSession;
  /** Called after exitRoom and destroy. */
  readonly onLeft: () => void;
}

const wanted = (state: MediaState) => state === 'on' || state === 'starting';

export function Room({ session, onLeft }: RoomProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const [leaving, setLeaving] = useState(false);
  const { params } = session;
  const room = roomLabel(params.room);
  const link = useMemo(() => inviteLink(params.sdkAppId, params.room, window.location, params.scene), [params]);
  const { connectionState, remoteUsers, camera, mic, notices, role, switchingRole } = snapshot;
  const live = params.scene === 'live';
  const audience = live && role === 'audience';

  useEffect(() => {
    const previous = document.title;
    document.title = `Room ${room} · Conclave`;
    return () => {
      document.title = previous;
    };
  }, [room]);

  const leave = async () => {
    if (leaving) return;
    setLeaving(true);
    await session.leave();
    onLeft();
  };

  const cameraOn = wanted(camera);
  const micOn = wanted(mic);

  return (
    <div className="room" data-testid="room-view">
      <header className="room-header">
        <div className="room-title">
          <span className="brand-mark" aria-hidden="true" />
          <h1>
            <span className="room-kicker">Room</span> <span data-testid="room-id">{room}</span>
          </h1>
          <span className="me">
            as <strong data-testid="my-userid">{params.userId}</strong>
            {live && (
              <span className="role-badge" data-testid="my-role" data-role={role}>
                {role === 'anchor' ? 'anchor' : 'audience'}
              </span>
            )}
          </span>
        </div>
        {live && (
          <button
            type="button"
            className="button button-secondary"
            data-testid="switch-role"
            onClick={() => session.switchRole()}
            disabled={switchingRole}
            aria-busy={switchingRole}
          >
            {audience ? 'Go on stage (anchor)' : 'Leave the stage (audience)'}
          </button>
        )}
        <NetworkBars insights={session.insights} />
        <div className="connection" title="Connection state">
          <span className={`state-dot state-${connectionState.toLowerCase()}`} aria-hidden="true" />
          <span className="visually-hidden">Connection: </span>
          <span data-testid="connection-state" data-state={connectionState}>
            {connectionState}
          </span>
        </div>
        <button
          type="button"
          className="button button-danger"
          data-testid="leave-button"
          onClick={() => void leave()}
          disabled={leaving}
          aria-busy={leaving}
        >
          <Icon name="leave" />
          {leaving ? 'Leaving…' : 'Leave'}
        </button>
      </header>

      <div className="notices" aria-live="assertive">
        {notices.map((notice) => (
          <div
            key={notice.id}
            className="alert alert-error notice"
            data-testid="room-error"
            data-code={notice.error.code}
            data-extra-code={notice.error.extraCode}
          >
            <div>
              <strong>{notice.title}</strong>{' '}
              {notice.error.code !== undefined && <code>code {notice.error.code}</code>}{' '}
              {notice.error.extraCode !== undefined && <code>extraCode {notice.error.extraCode}</code>}{' '}
              <span className="error-message">{notice.error.message}</span>
            </div>
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss"
              onClick={() => session.dismissNotice(notice.id)}
            >
              <Icon name="close" />
            </button>
          </div>
        ))}
      </div>

      <main className="stage">
        <section className="self" aria-label="You">
          <VideoTile
            local
            name={params.userId}
            tag="You"
            videoOn={camera === 'on'}
            placeholder={camera === 'starting' ? 'Starting camera…' : 'Camera off'}
            audioOn={mic === 'on'}
            viewRef={session.setLocalView}
            tileTestId="local-tile"
            nameTestId="local-name"
            videoTestId="local-video"
            actions={
              <>
                <StatsOverlay insights={session.insights} userId="" />
                <SpeakingIndicator insights={session.insights} userId="" />
              </>
            }
          />
          <div className="controls" role="group" aria-label="My devices">
            <button
              type="button"
              className={`control${micOn ? '' : ' control-off'}`}
              data-testid="toggle-mic"
              data-state={mic}
              aria-pressed={micOn}
              aria-busy={mic === 'starting' || mic === 'stopping'}
              disabled={audience}
              title={audience ? 'The audience cannot publish: go on stage first' : undefined}
              onClick={() => session.toggleMic()}
            >
              <Icon name={micOn ? 'mic' : 'mic-off'} />
              <span>Microphone</span>
              <span className="control-state">{micOn ? 'on' : 'off'}</span>
            </button>
            <button
              type="button"
              className={`control${cameraOn ? '' : ' control-off'}`}
              data-testid="toggle-camera"
              data-state={camera}
              aria-pressed={cameraOn}
              aria-busy={camera === 'starting' || camera === 'stopping'}
              disabled={audience}
              title={audience ? 'The audience cannot publish: go on stage first' : undefined}
              onClick={() => session.toggleCamera()}
            >
              <Icon name={cameraOn ? 'camera' : 'camera-off'} />
              <span>Camera</span>
              <span className="control-state">{cameraOn ? 'on' : 'off'}</span>
            </button>
          </div>
          <PublishControls media={session.localMedia} disabled={audience}>
            <DevicePickers media={session.localMedia} />
          </PublishControls>
          <InviteLink link={link} />
          <ChatPanel insights={session.insights} canSend={!audience} />
        </section>

        <section className="others" aria-labelledby="others-title">
          <h2 id="others-title">
            In the room <span className="count">{remoteUsers.length + 1}</span>
          </h2>
          <div className="remote-grid" data-testid="remote-grid" data-count={remoteUsers.length}>
            {remoteUsers.map((user) => (
              <RemoteTile key={user.userId} session={session} user={user} />
            ))}
            {remoteUsers.length === 0 && (
              <div className="empty">
                <p>
                  <strong>Nobody else is here yet.</strong>
                </p>
                <p>Share the invite link: whoever opens it joins room {room}.</p>
              </div>
            )}
          </div>
        </section>
      </main>
    </div>
  );
}
