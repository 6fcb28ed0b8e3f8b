import { useSyncExternalStore } from 'react';
import { useT } from './i18n';
import type { RoomStats } from './stats';

/** Resolution, frame rate and bitrates of one video ('' is the local camera), from the statistics event. */
export function StatsOverlay({ stats, userId }: { stats: RoomStats; userId: string }) {
  const { videos } = useSyncExternalStore(stats.subscribe, stats.getSnapshot);
  const t = useT();
  const figures = videos.get(userId);
  if (!figures) return null;
  return (
    <div className="stats-overlay" data-testid="stats-overlay" aria-label={t('stats.label')}>
      <span>{figures.width}×{figures.height}</span>
      <span>{t('stats.fps', { n: figures.frameRate })}</span>
      <span>{t('stats.kbps', { n: figures.bitrate })}</span>
      <span>{t('stats.audio', { n: figures.audioBitrate })}</span>
    </div>
  );
}
