import { useSyncExternalStore } from 'react';
import { useT } from './i18n';
import type { RoomInsights } from './insights';

/** Resolution, frame rate and bitrates of one video ('' is the local camera), from the statistics event. */
export function StatsOverlay({ insights, userId }: { insights: RoomInsights; userId: string }) {
  const { stats } = useSyncExternalStore(insights.subscribe, insights.getSnapshot);
  const t = useT();
  const figures = stats.get(userId);
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
