import type { DownlinkEstimate, VideoCap } from '../../webrtc/index.js';
import { budgetCost, capAbove, fitBudget, type BudgetItem } from './downlink-budget.js';

/** Queueing delay (ms) over which the link is overused: a bottleneck's queue is filling (jitter stays below). */
export const OVERUSE_QUEUE_MS = 60;
/** A loss share this high is congestion whatever the delay (random loss below it is left to NACK, RED and FEC). */
export const HEAVY_LOSS = 0.4;
/** Under this loss share the link is clean: the capacity may grow. */
const CLEAN_LOSS = 0.05;
/** On congestion the capacity becomes this share of what went through. */
const DECREASE = 0.85;
/** A clean link's capacity grows by this share a second… */
const GROWTH_PER_S = 0.08;
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
/** Retransmissions may take this share of the capacity (the NACK cap). */
export const RETRANSMIT_SHARE = 0.15;

/**
 * A subscriber's downlink allocator (issue 43): from what the subscriber's feedback says its link carries, what
 * each video subscription may carry — big → small → paused (audio always kept) so the sum fits, and back with
 * hysteresis. Down at once when the link is overused (queueing delay) or loses heavily, two readings in a row or
 * one far over: the capacity then becomes a little less than what went through. Up one step at a time, only after
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

  /** What each subscription may carry now, given the estimate read at `now` (ms). */
  tick(now: number, estimate: DownlinkEstimate, items: readonly BudgetItem[]): Map<string, VideoCap> {
    const dt = this.#lastTick === undefined ? 0 : Math.max(0, now - this.#lastTick);
    this.#lastTick = now;
    this.#updateCapacity(now, dt, estimate);
    for (const id of [...this.#caps.keys()]) if (!items.some((item) => item.id === id)) this.#caps.delete(id);
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
        const current = this.#caps.get(upgrade.id) ?? 'paused';
        const step: VideoCap = current === 'paused' && upgrade.small !== undefined ? 'small' : 'big';
        this.#caps.set(upgrade.id, step);
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

  #updateCapacity(now: number, dt: number, estimate: DownlinkEstimate): void {
    if (estimate.source === 'none') return;
    const congested = estimate.queueMs > OVERUSE_QUEUE_MS || estimate.loss > HEAVY_LOSS;
    this.#congested = congested ? this.#congested + 1 : 0;
    const through = estimate.ackedBps ?? estimate.sentBps * (1 - estimate.loss);
    if (this.#congested >= 2 || (congested && estimate.queueMs > 2 * OVERUSE_QUEUE_MS)) {
      const next = through * DECREASE;
      if (next < this.capacity && through > 0) {
        if (now - this.#upgradedAt < REFUSED_WITHIN_MS) this.#refused++;
        this.capacity = next;
        this.#decreasedAt = now;
      }
      return;
    }
    if (now - this.#decreasedAt > FORGET_MS) this.#refused = 0;
    if (!congested && estimate.loss < CLEAN_LOSS && Number.isFinite(this.capacity) && now - this.#decreasedAt > 1000) {
      const bound = Math.max(this.capacity, through * HEADROOM + HEADROOM_BPS);
      this.capacity = Math.min(bound, this.capacity * (1 + (GROWTH_PER_S * dt) / 1000));
    }
  }
}
