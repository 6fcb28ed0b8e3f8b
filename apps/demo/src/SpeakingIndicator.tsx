import { useSyncExternalStore } from 'react';
import { useT } from './i18n';
import { SPEAKING_VOLUME, type RoomStats } from './stats';

/** A level meter that lights up while this participant ('' is me) speaks, from the audio-volume event. */
export function SpeakingIndicator({ stats, userId }: { stats: RoomStats; userId: string }) {
  const { volumes } = useSyncExternalStore(stats.subscribe, stats.getSnapshot);
  const t = useT();
  const volume = volumes.get(userId) ?? 0;
  const speaking = volume >= SPEAKING_VOLUME;
  return (
    <span
      className={speaking ? 'speaking on' : 'speaking'}
      data-testid="speaking-indicator"
      data-speaking={speaking ? 'true' : 'false'}
      data-volume={volume}
      role="meter"
      aria-label={t('stats.speaking')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={volume}
    >
      <span className="speaking-level" style={{ width: `${volume}%` }} />
    </span>
  );
}
