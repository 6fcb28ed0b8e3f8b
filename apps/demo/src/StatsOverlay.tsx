import { useSyncExternalStore } from 'react';
import type { RoomInsights } from './insights';

/** Resolution, frame rate and bitrates of one video ('' is the local camera), from the statistics event. */
export function StatsOverlay({ insights, userId }: { insights: RoomInsights; userId: string }) {
  const { stats } = useSyncExternalStore(insights.subscribe, insights.getSnapshot);
  const figures = stats.get(userId);
  if (!figures) return null;
  return (
    <div className="stats-overlay" data-testid="stats-overlay" aria-label="Video statistics">
      <span>{figures.width}×{figures.height}</span>
      <span>{figures.frameRate} fps</span>
      <span>{figures.bitrate} kbps</span>
      <span>audio {figures.audioBitrate} kbps</span>
    </div>
  );
}
