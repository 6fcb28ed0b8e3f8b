import { useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { Icon } from '../Icon';
import { useT } from '../i18n';
import { SPEAKING_VOLUME } from '../stats';
import type { RemoteUser, RoomSession } from '../session';
import { arrangeTiles } from './layout';
import { LocalTile, RemoteCameraTile, RemoteScreenTile } from './tiles';
import './stage.css';

const PAGER_HEIGHT = 44;

/** A remote user who sends something: in a live room, an anchor on stage (the others watch). */
export const isPublishing = (user: RemoteUser) => user.videoAvailable || user.audioAvailable || user.screenAvailable;

/** The stage's key of a tile. */
export const tileKey = {
  local: 'cam:',
  camera: (userId: string) => `cam:${userId}`,
  screen: (userId: string) => `screen:${userId}`,
};

function useBoxSize(): [RefObject<HTMLDivElement | null>, { width: number; height: number }] {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

export interface StageProps {
  readonly session: RoomSession;
  readonly pinned: string | null;
  readonly setPinned: (key: string | null) => void;
  readonly showStats: boolean;
}

/**
 * Every video of the room on one layer that fills the space between the top of the window and the
 * control bar: a grid (paged when tiles would get smaller than a face) or, when someone shares a screen
 * or a tile is pinned, that one big with a film strip of the others.
 */
export function Stage({ session, pinned, setPinned, showStats }: StageProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const { volumes } = useSyncExternalStore(session.stats.subscribe, session.stats.getSnapshot);
  const [box, size] = useBoxSize();
  const [page, setPage] = useState(0);

  const screens = snapshot.remoteUsers.filter((user) => user.screenAvailable);
  // In a live room the audience watches: only those on stage (publishing) get a tile.
  const live = session.params.scene === 'live';
  const onStage = !(live && snapshot.role === 'audience');
  const stageUsers = live ? snapshot.remoteUsers.filter(isPublishing) : snapshot.remoteUsers;
  const keys = [
    ...screens.map((user) => tileKey.screen(user.userId)),
    ...(onStage ? [tileKey.local] : []),
    ...stageUsers.map((user) => tileKey.camera(user.userId)),
  ];
  const focus = pinned && keys.includes(pinned) ? pinned : screens[0] ? tileKey.screen(screens[0].userId) : null;
  // With more than one page, the pager gets its own strip at the bottom so it covers no tile.
  const onePage = arrangeTiles(keys, focus, size.width, size.height, page);
  const arranged = onePage.pages > 1 ? arrangeTiles(keys, focus, size.width, size.height - PAGER_HEIGHT, page) : onePage;

  // The loudest voice above the speaking threshold ('' is me).
  let speaker: string | null = null;
  let loudest = SPEAKING_VOLUME - 1;
  for (const [userId, volume] of volumes) {
    if (volume > loudest) {
      loudest = volume;
      speaker = userId;
    }
  }
  const rectOf = (key: string) => (size.width > 0 ? arranged.rects.get(key) ?? null : null);
  const pin = (key: string) => () => setPinned(pinned === key ? null : key);
  const common = { session, showStats };
  const t = useT();

  return (
    <main className="stage" ref={box} data-testid="stage" data-layout={arranged.mode} data-tiles={keys.length}
      data-page={arranged.page} data-pages={arranged.pages} aria-label={t('stage.videos')}>
      {screens.map((user) => {
        const key = tileKey.screen(user.userId);
        return <RemoteScreenTile key={key} {...common} user={user} rect={rectOf(key)} pinned={focus === key} onPin={pin(key)} />;
      })}
      <LocalTile {...common} rect={onStage ? rectOf(tileKey.local) : null} pinned={focus === tileKey.local} onPin={pin(tileKey.local)}
        volume={volumes.get('') ?? 0} activeSpeaker={speaker === ''} />
      {stageUsers.map((user) => {
        const key = tileKey.camera(user.userId);
        return (
          <RemoteCameraTile key={key} {...common} user={user} rect={rectOf(key)} pinned={focus === key} onPin={pin(key)}
            volume={volumes.get(user.userId) ?? 0} activeSpeaker={speaker === user.userId} />
        );
      })}
      {arranged.pages > 1 && (
        <nav className="pager" aria-label={t('stage.pages')}>
          <button type="button" className="pager-button" data-testid="stage-prev" disabled={arranged.page === 0}
            aria-label={t('stage.prev')} onClick={() => setPage(arranged.page - 1)}>‹</button>
          <span data-testid="stage-page">{arranged.page + 1} / {arranged.pages}</span>
          <button type="button" className="pager-button" data-testid="stage-next" disabled={arranged.page >= arranged.pages - 1}
            aria-label={t('stage.next')} onClick={() => setPage(arranged.page + 1)}>›</button>
        </nav>
      )}
      {arranged.hiddenInStrip > 0 && (
        <span className="strip-more" data-testid="strip-more">{t('stage.more', { count: arranged.hiddenInStrip })}</span>
      )}
      {focus && pinned === focus && (
        <button type="button" className="unpin" data-testid="unpin" onClick={() => setPinned(null)}>
          <Icon name="pin" /> {t('tile.unpinTitle')}
        </button>
      )}
    </main>
  );
}
