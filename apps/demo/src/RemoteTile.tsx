import { useCallback } from 'react';
import { Icon } from './Icon';
import { RemotePlaybackControls } from './RemotePlaybackControls';
import { SpeakingIndicator } from './SpeakingIndicator';
import { StatsOverlay } from './StatsOverlay';
import type { RemoteUser, RoomSession } from './session';
import { VideoTile } from './VideoTile';

/** A remote user's tile; its view element is where `startRemoteVideo` plays the main stream. */
export function RemoteTile({ session, user }: { session: RoomSession; user: RemoteUser }) {
  const { userId } = user;
  const viewRef = useCallback(
    (element: HTMLDivElement | null) => {
      session.setRemoteView(userId, element);
    },
    [session, userId],
  );

  const muteLabel = user.audioMuted ? `Unmute ${userId}` : `Mute ${userId} for me`;
  return (
    <VideoTile
      name={userId}
      userId={userId}
      videoOn={user.videoAvailable}
      placeholder="Camera off"
      audioOn={user.audioAvailable && !user.audioMuted}
      viewRef={viewRef}
      tileTestId="remote-tile"
      nameTestId="remote-name"
      videoTestId="remote-video"
      actions={
        <>
          <RemotePlaybackControls playback={session.playback} userId={userId} videoOn={user.videoAvailable} />
          <StatsOverlay insights={session.insights} userId={userId} />
          <SpeakingIndicator insights={session.insights} userId={userId} />
          <button
            type="button"
            className="icon-button"
            data-testid="remote-mute"
            aria-pressed={user.audioMuted}
            aria-label={muteLabel}
            title={muteLabel}
            onClick={() => session.setRemoteAudioMuted(userId, !user.audioMuted)}
          >
            <Icon name={user.audioMuted ? 'volume-off' : 'volume'} />
          </button>
        </>
      }
    />
  );
}
