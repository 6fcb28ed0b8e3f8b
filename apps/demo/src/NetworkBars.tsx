import { useSyncExternalStore } from 'react';
import { useT, type MessageKey } from './i18n';
import type { RoomStats } from './stats';

const LABEL: readonly MessageKey[] = ['net.0', 'net.1', 'net.2', 'net.3', 'net.4', 'net.5', 'net.6'];

/** Bars lit for a quality level: 1 excellent → 4 bars … 5 very bad → 0; 0 unknown and 6 disconnected → none. */
function barsFor(quality: number): number {
  if (quality <= 0 || quality >= 6) return 0;
  return Math.max(0, 5 - quality);
}

/** Four bars for a quality level 0–6, with its name for screen readers. */
export function QualityBars({ quality, label }: { quality: number; label: string }) {
  const lit = barsFor(quality);
  const t = useT();
  const text = `${label}: ${t(LABEL[quality] ?? 'net.0')}`;
  return (
    <span className="net-bars" role="img" aria-label={text} title={text} data-quality={quality}>
      {[1, 2, 3, 4].map((bar) => (
        <span key={bar} className={bar <= lit ? 'bar lit' : 'bar'} style={{ height: `${bar * 25}%` }} />
      ))}
    </span>
  );
}

/** Uplink and downlink quality (network-quality event) with the round-trip time. */
export function NetworkBars({ stats }: { stats: RoomStats }) {
  const { quality } = useSyncExternalStore(stats.subscribe, stats.getSnapshot);
  const t = useT();
  if (!quality) return null;
  return (
    <div className="network" data-testid="network-quality" data-uplink={quality.uplinkNetworkQuality} data-downlink={quality.downlinkNetworkQuality}>
      <span className="net-dir">↑</span>
      <QualityBars quality={quality.uplinkNetworkQuality} label={t('net.uplink')} />
      <span className="net-dir">↓</span>
      <QualityBars quality={quality.downlinkNetworkQuality} label={t('net.downlink')} />
      <span className="net-rtt" data-testid="network-rtt">{t('net.rtt', { ms: Math.max(quality.uplinkRTT, quality.downlinkRTT) })}</span>
    </div>
  );
}
