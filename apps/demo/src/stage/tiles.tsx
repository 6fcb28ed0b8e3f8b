import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { Icon } from '../Icon';
import { useT } from '../i18n';
import { RemotePlaybackControls } from '../RemotePlaybackControls';
import { SpeakingIndicator } from '../SpeakingIndicator';
import { StatsOverlay } from '../StatsOverlay';
import type { RemoteUser, RoomSession } from '../session';
import type { TileRect } from './layout';
import { Tile } from './Tile';

interface CommonProps {
  readonly session: RoomSession;
  readonly showStats: boolean;
  readonly rect: TileRect | null;
  readonly pinned: boolean;
  readonly onPin: () => void;
}

function useQuality(session: RoomSession, direction: 'uplink' | 'downlink'): number | null {
  const { quality } = useSyncExternalStore(session.stats.subscribe, session.stats.getSnapshot);
  if (!quality) return null;
  return direction === 'uplink' ? quality.uplinkNetworkQuality : quality.downlinkNetworkQuality;
}

/** My camera (the `startLocalVideo` view); its bars are my uplink. */
export function LocalTile({ session, showStats, rect, pinned, onPin, volume, activeSpeaker }: CommonProps & { volume: number; activeSpeaker: boolean }) {
  const { camera, mic } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const t = useT();
  return (
    <Tile
      kind="camera" name={session.params.userId} tag={t('people.you')} videoOn={camera === 'on'}
      placeholder={camera === 'starting' ? t('preview.cameraStarting') : t('people.cameraOff')} audioOn={mic === 'on'}
      volume={volume} activeSpeaker={activeSpeaker} quality={useQuality(session, 'uplink')} qualityLabel={t('tile.myUpload')}
      viewRef={session.setLocalView} rect={rect} pinned={pinned} onPin={onPin}
      tileTestId="local-tile" nameTestId="local-name" videoTestId="local-video"
      stats={<div className="tile-stats" hidden={!showStats}><StatsOverlay stats={session.stats} userId="" /></div>}
    />
  );
}

/** A remote user's camera. Its view is given to the session only while the tile is on screen. */
export function RemoteCameraTile({ session, showStats, rect, pinned, onPin, user, volume, activeSpeaker }: CommonProps & {
  user: RemoteUser; volume: number; activeSpeaker: boolean;
}) {
  const { userId } = user;
  const [view, setView] = useState<HTMLDivElement | null>(null);
  const visible = rect !== null;
  useEffect(() => {
    session.setRemoteView(userId, visible ? view : null, 'main');
  }, [session, userId, view, visible]);
  useEffect(() => () => session.setRemoteView(userId, null, 'main'), [session, userId]);
  const onWidth = useCallback((width: number) => void session.playback.setTileWidth(userId, width, user.videoAvailable), [session, userId, user.videoAvailable]);

  const t = useT();
  const muteLabel = user.audioMuted ? t('people.unmuteFor', { userId }) : t('people.muteFor', { userId });
  return (
    <Tile
      kind="camera" name={userId} userId={userId} videoOn={user.videoAvailable} placeholder={t('people.cameraOff')}
      audioOn={user.audioAvailable && !user.audioMuted} volume={volume} activeSpeaker={activeSpeaker}
      quality={useQuality(session, 'downlink')} qualityLabel={t('tile.myDownload')} viewRef={setView} rect={rect}
      pinned={pinned} onPin={onPin} onWidth={onWidth}
      tileTestId="remote-tile" nameTestId="remote-name" videoTestId="remote-video"
      menu={
        <>
          <RemotePlaybackControls playback={session.playback} userId={userId} videoOn={user.videoAvailable} />
          <button type="button" className="tile-button" data-testid="remote-mute" aria-pressed={user.audioMuted}
            aria-label={muteLabel} title={muteLabel} onClick={() => session.setRemoteAudioMuted(userId, !user.audioMuted)}>
            <Icon name={user.audioMuted ? 'volume-off' : 'volume'} />
          </button>
        </>
      }
      stats={
        <div className="tile-stats" hidden={!showStats}>
          <StatsOverlay stats={session.stats} userId={userId} />
          <SpeakingIndicator stats={session.stats} userId={userId} />
        </div>
      }
    />
  );
}

/** A remote user's screen share (the sub stream), shown whole (contain). */
export function RemoteScreenTile({ session, rect, pinned, onPin, user }: CommonProps & { user: RemoteUser }) {
  const { userId } = user;
  const [view, setView] = useState<HTMLDivElement | null>(null);
  const visible = rect !== null;
  useEffect(() => {
    session.setRemoteView(userId, visible ? view : null, 'sub');
  }, [session, userId, view, visible]);
  useEffect(() => () => session.setRemoteView(userId, null, 'sub'), [session, userId]);
  const t = useT();
  return (
    <Tile
      kind="screen" name={userId} userId={userId} tag={t('tile.screen')} videoOn placeholder={t('tile.screen')} audioOn={false} volume={0}
      activeSpeaker={false} quality={null} qualityLabel="" viewRef={setView} rect={rect} pinned={pinned} onPin={onPin}
      tileTestId="screen-tile" nameTestId="screen-name" videoTestId="screen-video"
    />
  );
}
