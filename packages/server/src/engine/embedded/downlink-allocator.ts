import type { DownlinkEstimate, VideoCap } from '../../webrtc/index.js';
import { budgetCost, capAbove, fitBudget, type BudgetItem } from './downlink-budget.js';

/** Queueing delay (ms) over which the link is overused: a bottleneck's queue is filling (jitter stays below). */
export const OVERUSE_QUEUE_MS = 60;
/** A queueing delay grew by more than this since the last reading: it is filling. */
const QUEUE_RISE_MS = 20;
/** …or it comes with more loss than this: it is full. */
const QUEUE_LOSS = 0.02;
/**
 * A loss share this high lowers the layers even without a queue — to the small ones at most, never to a pause: random
 * loss (a radio link) and a policer's look alike, and pausing for the first would stop the video of every lossy link.
 */
export const HEAVY_LOSS = 0.7;
/** Under this loss share the link is clean: the capacity may grow. */
const CLEAN_LOSS = 0.05;
/**
 * On congestion the capacity becomes this share of what went through. Less of a cut than GCC's 0.85: the
 * acknowledged rate already leaves out what else the link carried (retransmissions, IP and UDP headers) — at a
 * 600 kbit/s cap it read ~420 kbit/s.
 */
const DECREASE = 0.95;
/** A clean link's capacity grows by this share a second (at least GROWTH_MIN_BPS a second)… */
const GROWTH_PER_S = 0.08;
const GROWTH_MIN_BPS = 40_000;
/** …to at most this many times what went through (plus a little): an unused capacity is not believed. */
const HEADROOM = 1.5;
const HEADROOM_BPS = 64_000;
/** An upgrade must fit with this margin… */
export const UP_MARGIN = 1.15;
/** …for this long (doubled for each upgrade the link refused lately, up to MAX_HOLD_MS) before it is made. */
export const UP_HOLD_MS = 3000;
const MAX_HOLD_MS = 30_000;
/** A decrease this soon after an upgrade refuses it (the next upgrade waits twice as long). */
const REFUSED_WITHIN_MS = 5000;
/** Refused upgrades are forgotten after this long without a decrease. */
const FORGET_MS = 30_000;
/** Decreases are at least this far apart (the queue drains between them). */
const DECREASE_SPACING_MS = 1000;
/** Retransmissions may take this share of the capacity (the NACK cap). */
export const RETRANSMIT_SHARE = 0.15;

/**
 * A subscriber's downlink allocator (issue 43): from what the subscriber's feedback says its link carries, what
 * each video subscription may carry — big → small → paused (audio always kept) so the sum fits, and back with
 * hysteresis. Down at once when the link is overused (a queueing delay that grows, or comes with loss) or loses
 * heavily, two readings in a row or one far over with loss: the capacity then becomes a little less than what went through. Up one step at a time, only after
 * the capacity (growing gently on a clean link) held a margin above the next step's cost for a few seconds; an
 * upgrade the link refuses (congestion soon after it) doubles the wait before the next. It only lowers what the
 * app asked for (BudgetItem.ceiling). Pure: time and the estimate are given to each `tick`.
 */
export class DownlinkAllocator {
  /** Bits per second the link is believed to carry; unbounded until it first showed congestion. */
  capacity = Number.POSITIVE_INFINITY;
  readonly #caps = new Map<string, VideoCap>();
  #congested = 0;
  #lastTick: number | undefined;
  #decreasedAt = Number.NEGATIVE_INFINITY;
  #upgradedAt = Number.NEGATIVE_INFINITY;
  #upSince: number | undefined;
  #refused = 0;
  #lastQueueMs = 0;

  /** What each subscription may carry now, given the estimate read at `now` (ms). */
  tick(now: number, estimate: DownlinkEstimate, items: readonly BudgetItem[]): Map<string, VideoCap> {
    const dt = this.#lastTick === undefined ? 0 : Math.max(0, now - this.#lastTick);
    this.#lastTick = now;
    for (const id of [...this.#caps.keys()]) if (!items.some((item) => item.id === id)) this.#caps.delete(id);
    this.#updateCapacity(now, dt, estimate, this.#nextStepCost(items), lowestCost(items));
    const fits = fitBudget(this.capacity, items);
    const fitsWithMargin = fitBudget(this.capacity / UP_MARGIN, items);
    let upgrade: BudgetItem | undefined;
    for (const item of items) {
      const current = this.#caps.get(item.id) ?? fits.get(item.id) ?? 'paused';
      const fit = fits.get(item.id) ?? 'paused';
      if (capAbove(current, fit)) this.#caps.set(item.id, fit);
      else {
        this.#caps.set(item.id, current);
        if (!upgrade && capAbove(fitsWithMargin.get(item.id) ?? 'paused', current)) upgrade = item;
      }
    }
    if (!upgrade) this.#upSince = undefined;
    else {
      this.#upSince ??= now;
      if (now - this.#upSince >= this.holdMs) {
        this.#caps.set(upgrade.id, stepUp(upgrade, this.#caps.get(upgrade.id) ?? 'paused'));
        this.#upgradedAt = now;
        this.#upSince = undefined;
      }
    }
    return new Map(this.#caps);
  }

  /** How long an upgrade must fit before it is made now. */
  get holdMs(): number {
    return Math.min(MAX_HOLD_MS, UP_HOLD_MS * 2 ** this.#refused);
  }

  /** Retransmission bits a second allowed now: a share of the capacity (unbounded while it is). */
  get retransmitBudgetBps(): number {
    return this.capacity * RETRANSMIT_SHARE;
  }

  /** What the current caps cost (for stats and tests). */
  cost(items: readonly BudgetItem[]): number {
    return budgetCost(items, this.#caps);
  }

  /** What the caps would cost after the next upgrade (the first subscription below its ceiling, one step up); undefined at the ceilings. */
  #nextStepCost(items: readonly BudgetItem[]): number | undefined {
    for (const item of items) {
      const current = this.#caps.get(item.id);
      if (current === undefined) continue;
      const next = stepUp(item, current);
      if (capAbove(next, current)) return budgetCost(items, new Map(this.#caps).set(item.id, next));
    }
    return undefined;
  }

  #updateCapacity(now: number, dt: number, estimate: DownlinkEstimate, nextStepCost: number | undefined, lowest: number): void {
    if (estimate.source === 'none') return;
    // A queue is a delay over the path's own that still grows, or that comes with loss (a full queue drops): a path
    // that just got longer (a route change, the bench's added RTT) reads as a high but steady delay without loss.
    const rising = estimate.queueMs - this.#lastQueueMs > QUEUE_RISE_MS;
    this.#lastQueueMs = estimate.queueMs;
    const lossy = estimate.loss > QUEUE_LOSS;
    const queued = estimate.queueMs > OVERUSE_QUEUE_MS && (rising || lossy);
    const congested = queued || estimate.loss > HEAVY_LOSS;
    this.#congested = congested ? this.#congested + 1 : 0;
    const through = estimate.ackedBps ?? estimate.sentBps * (1 - estimate.loss);
    if (this.#congested >= 2 || (queued && lossy && estimate.queueMs > 2 * OVERUSE_QUEUE_MS)) {
      const next = queued ? through * DECREASE : Math.max(through * DECREASE, lowest);
      // Once per DECREASE_SPACING_MS: the queue the last decrease was read from drains meanwhile.
      if (next < this.capacity && through > 0 && now - this.#decreasedAt >= DECREASE_SPACING_MS) {
        if (now - this.#upgradedAt < REFUSED_WITHIN_MS) this.#refused++;
        this.capacity = next;
        this.#decreasedAt = now;
      }
      return;
    }
    if (now - this.#decreasedAt > FORGET_MS) this.#refused = 0;
    if (!congested && estimate.loss < CLEAN_LOSS && Number.isFinite(this.capacity) && now - this.#decreasedAt > 1000) {
      // Up to what the next upgrade needs too: an unused link is believed only by trying it (and the upgrade is
      // dropped again if the link refuses it).
      const probe = nextStepCost === undefined ? 0 : nextStepCost * UP_MARGIN * 1.02;
      const bound = Math.max(this.capacity, through * HEADROOM + HEADROOM_BPS, probe);
      this.capacity = Math.min(bound, this.capacity + (Math.max(this.capacity * GROWTH_PER_S, GROWTH_MIN_BPS) * dt) / 1000);
    }
  }
}

/** One step above `current` for `item`: paused → small (or big without a small layer) → big, never above its ceiling. */
function stepUp(item: BudgetItem, current: VideoCap): VideoCap {
  if (item.ceiling === 'none') return current;
  if (current === 'paused') return item.small !== undefined ? 'small' : 'big';
  if (current === 'small' && item.ceiling === 'big') return 'big';
  return current;
}

/** What every camera at its lowest layer (small, or big without one) and the fixed part cost together. */
function lowestCost(items: readonly BudgetItem[]): number {
  return items.reduce((n, item) => n + item.fixed + (item.ceiling === 'none' ? 0 : item.small ?? item.big), 0);
}
