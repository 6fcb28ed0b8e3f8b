import type { DownlinkGroup, VideoCap } from '../../webrtc/index.js';

/** One subscription as the allocator sizes it (bits per second on the link, overhead included). */
export interface BudgetItem {
  id: string;
  /** The most the app asked for: the big layer (the small one allowed instead), the small one only, or no camera. */
  ceiling: 'big' | 'small' | 'none';
  /** What each camera layer costs now; small undefined when the publisher sends none. */
  big: number;
  small: number | undefined;
  /** Audio and the auxiliary video (screen share): always carried, counted first. */
  fixed: number;
}

/**
 * Fits a subscriber's subscriptions to `capacity` (issue 43): audio and the auxiliary videos first, whatever they
 * cost; then every camera at its lowest layer that shows it (the small one where there is one), in order, while
 * they fit — those that do not are paused; then big layers, in order, where they were asked for and fit. A
 * subscription never gets more than its ceiling.
 */
export function fitBudget(capacity: number, items: readonly BudgetItem[]): Map<string, VideoCap> {
  const caps = new Map<string, VideoCap>();
  let left = capacity - items.reduce((n, item) => n + item.fixed, 0);
  for (const item of items) {
    caps.set(item.id, 'paused');
    if (item.ceiling === 'none') continue;
    const lowest = item.small !== undefined ? item.small : item.big;
    if (lowest <= left) {
      left -= lowest;
      caps.set(item.id, item.small !== undefined ? 'small' : 'big');
    }
  }
  for (const item of items) {
    if (item.ceiling !== 'big' || item.small === undefined || caps.get(item.id) !== 'small') continue;
    const more = item.big - item.small;
    if (more <= left) {
      left -= more;
      caps.set(item.id, 'big');
    }
  }
  return caps;
}

/** What the caps cost together (the layers they let through, and the fixed part). */
export function budgetCost(items: readonly BudgetItem[], caps: ReadonlyMap<string, VideoCap>): number {
  let total = 0;
  for (const item of items) {
    total += item.fixed;
    const cap = caps.get(item.id) ?? 'paused';
    if (cap === 'big' && item.ceiling !== 'none') total += item.ceiling === 'small' && item.small !== undefined ? item.small : item.big;
    else if (cap === 'small' && item.ceiling !== 'none') total += item.small ?? item.big;
  }
  return total;
}

const RANK: Record<VideoCap, number> = { paused: 0, small: 1, big: 2 };

/** True when `a` lets more through than `b`. */
export function capAbove(a: VideoCap, b: VideoCap): boolean {
  return RANK[a] > RANK[b];
}

/** What a layer is taken to cost before its publisher's rate is known (its first second). */
const UNMEASURED = { big: 500_000, small: 120_000, audio: 40_000 } as const;

/** A subscription's budget item: its ceiling from what the app asked, its costs from its sources' rates now. */
export function budgetItem(id: string, group: DownlinkGroup, red: boolean): BudgetItem {
  const { wants, sources } = group;
  const ceiling = wants.bigVideo ? 'big' : wants.smallVideo ? 'small' : 'none';
  const rate = (measured: number | undefined, unmeasured: number) => (measured === undefined || measured === 0 ? unmeasured : measured);
  const smallActive = sources?.small.active ?? false;
  const audio = wants.audio ? rate(sources?.audio.bitrate, UNMEASURED.audio) * (red ? 2 : 1) : 0;
  const aux = wants.auxVideo && sources?.aux.active ? rate(sources.aux.bitrate, UNMEASURED.big) : 0;
  return {
    id, ceiling,
    big: rate(sources?.video.bitrate, UNMEASURED.big),
    small: smallActive ? rate(sources?.small.bitrate, UNMEASURED.small) : undefined,
    fixed: audio + aux,
  };
}
