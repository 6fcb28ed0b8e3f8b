import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppConfig, CallbackTarget, LimitsConfig } from '../config/config.js';
import type { RecordingEvent } from '../recording/recording-manager.js';
import type { RoomEvent, RoomEvents } from '../room/room-events.js';
import type { CallbackStore, QueuedCallback } from '../store/callback-store.js';
import { callbackEvent, recordingCallbacks, type CallbackEvent } from './callback-body.js';

/** How long a receiver has to answer (as the original: 5 s). */
export const CALLBACK_TIMEOUT_MS = 5000;
/** Callbacks in flight at once (each room has at most one: a room's callbacks stay in order). */
const MAX_IN_FLIGHT = 16;

/** What the dispatcher works with. */
export interface CallbackDeps {
  apps: readonly AppConfig[];
  limits: Pick<LimitsConfig, 'callbackQueuePerApp' | 'callbackRetrySeconds' | 'callbackMaxAgeSeconds'>;
  queue: CallbackStore;
  events: RoomEvents;
  /** Recordings starting and ending (the cloud recording callbacks). */
  recordings?: { onEvent(listener: (event: RecordingEvent) => void): void };
  logger: Logger;
  /** Where its metrics are registered (/metrics). */
  registry?: Registry;
}

/** One app's delivery figures (admin API). */
export interface CallbackStatus {
  url: string | null;
  queued: number;
  oldestQueuedAt: number | null;
  lastError: string | null;
  delivered: number;
  failures: number;
  dropped: number;
}

/** `Sign` of a callback body: base64(HMAC-SHA256(key, body)). */
export function signCallback(key: string, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64');
}

/**
 * Delivers room and media events to each app's callback URL in TRTC's callback format: every event is first
 * written to the store's queue (so a crash or restart loses none), then POSTed with its `Sign` and `SdkAppId`
 * headers. A room's events go out one at a time, in order; a failure or a time-out is retried at once, then
 * every callbackRetrySeconds, until callbackMaxAgeSeconds. Delivery is at least once: an event whose answer a
 * restart interrupted is sent again.
 */
export class CallbackDispatcher {
  readonly #deps: CallbackDeps;
  readonly #apps: Map<number, CallbackTarget>;
  readonly #inFlight = new Map<string, AbortController>();
  readonly #figures = new Map<number, { delivered: number; failures: number; dropped: number }>();
  readonly #stopListening: () => void;
  readonly #counters: { delivered: Counter; failures: Counter; dropped: Counter<'reason'> } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #closed = false;

  constructor(deps: CallbackDeps) {
    this.#deps = deps;
    this.#apps = new Map(deps.apps.flatMap((app) => (app.callback ? [[app.sdkAppId, app.callback] as const] : [])));
    this.#stopListening = deps.events.on((event) => this.enqueue(event));
    deps.recordings?.onEvent((event) => {
      for (const body of recordingCallbacks(event)) this.#queue(event.sdkAppId, event.roomKey, event.at, body, event.type);
    });
    if (deps.registry) {
      const registers = [deps.registry];
      const queue = deps.queue;
      new Gauge({ name: 'conclave_callbacks_queued', help: 'Event callbacks waiting to be delivered', registers, collect() { this.set(queue.count()); } });
      this.#counters = {
        delivered: new Counter({ name: 'conclave_callbacks_delivered_total', help: 'Event callbacks delivered', registers }),
        failures: new Counter({ name: 'conclave_callback_failures_total', help: 'Event callback attempts that failed (error, time-out or a status other than 2xx)', registers }),
        dropped: new Counter({ name: 'conclave_callbacks_dropped_total', help: 'Event callbacks given up, by reason (queue-full, expired)', labelNames: ['reason'], registers }),
      };
    }
    // What an earlier run left queued goes out now.
    this.#pump();
  }

  /** Queues the callback of a room event for its app (nothing when the app has no callback URL). */
  enqueue(event: RoomEvent): void {
    this.#queue(event.sdkAppId, event.roomKey, event.at, callbackEvent(event), event.type);
  }

  #queue(sdkAppId: number, roomKey: string, at: number, body: CallbackEvent, what: string): void {
    if (this.#closed || !this.#apps.has(sdkAppId)) return;
    const { queue, limits, logger } = this.#deps;
    if (queue.count(sdkAppId) >= limits.callbackQueuePerApp) {
      this.#drop(sdkAppId, 'queue-full');
      logger.warn({ sdkAppId, event: what, limit: limits.callbackQueuePerApp }, 'callbacks: queue full, event dropped');
      return;
    }
    queue.add(sdkAppId, roomKey, JSON.stringify(body), at);
    this.#pump();
  }

  /** An app's callback URL, queue and delivery figures since start. */
  status(sdkAppId: number): CallbackStatus {
    const summary = this.#deps.queue.summary(sdkAppId);
    const figures = this.#figures.get(sdkAppId) ?? { delivered: 0, failures: 0, dropped: 0 };
    return { url: this.#apps.get(sdkAppId)?.url ?? null, queued: summary.queued, oldestQueuedAt: summary.oldestAt, lastError: summary.lastError, ...figures };
  }

  /** Stops delivering; what is queued or in flight stays queued for the next start. */
  close(): void {
    this.#closed = true;
    this.#stopListening();
    clearTimeout(this.#timer);
    for (const controller of this.#inFlight.values()) controller.abort();
  }

  /** Sends every room's due head that is not already in flight, and sets the timer for the next one. */
  #pump(): void {
    if (this.#closed) return;
    const now = Date.now();
    const room = MAX_IN_FLIGHT - this.#inFlight.size;
    if (room > 0) for (const item of this.#deps.queue.dueHeads(now, new Set(this.#inFlight.keys()), room)) void this.#send(item);
    const next = this.#deps.queue.nextDueAt();
    // A due head that is in flight wakes the pump when its attempt ends; only a future one needs the timer.
    if (next !== undefined && next > now && next < this.#timerAt) {
      clearTimeout(this.#timer);
      this.#timerAt = next;
      this.#timer = setTimeout(() => {
        this.#timerAt = Infinity;
        this.#pump();
      }, next - now);
      this.#timer.unref();
    }
  }

  async #send(item: QueuedCallback): Promise<void> {
    const target = this.#apps.get(item.sdkAppId);
    const controller = new AbortController();
    this.#inFlight.set(item.roomKey, controller);
    try {
      if (!target) {
        // The app's callback was removed from the configuration: its queue is given up.
        this.#deps.queue.remove(item.id);
        this.#drop(item.sdkAppId, 'no-target');
        return;
      }
      const error = await this.#post(target, item, controller.signal);
      if (this.#closed) return;
      if (error === undefined) {
        this.#deps.queue.remove(item.id);
        this.#figure(item.sdkAppId).delivered++;
        this.#counters?.delivered.inc();
        return;
      }
      this.#figure(item.sdkAppId).failures++;
      this.#counters?.failures.inc();
      const now = Date.now();
      if (now - item.createdAt > this.#deps.limits.callbackMaxAgeSeconds * 1000) {
        this.#deps.queue.remove(item.id);
        this.#drop(item.sdkAppId, 'expired');
        this.#deps.logger.warn({ sdkAppId: item.sdkAppId, room: item.roomKey, attempts: item.attempts + 1, error }, 'callbacks: given up after callbackMaxAgeSeconds');
        return;
      }
      // The first retry is at once (as the original), then every callbackRetrySeconds.
      const nextAt = item.attempts === 0 ? now : now + this.#deps.limits.callbackRetrySeconds * 1000;
      this.#deps.queue.failed(item.id, error, nextAt);
      if (item.attempts === 0) this.#deps.logger.info({ sdkAppId: item.sdkAppId, room: item.roomKey, error }, 'callbacks: delivery failed, retrying');
    } finally {
      this.#inFlight.delete(item.roomKey);
      this.#pump();
    }
  }

  /** POSTs one callback; undefined when the receiver took it (2xx), else why not. */
  async #post(target: CallbackTarget, item: QueuedCallback, abort: AbortSignal): Promise<string | undefined> {
    const event = JSON.parse(item.body) as CallbackEvent;
    const body = JSON.stringify({ EventGroupId: event.EventGroupId, EventType: event.EventType, CallbackTs: Date.now(), EventInfo: event.EventInfo });
    const headers: Record<string, string> = { 'Content-Type': 'application/json', SdkAppId: String(item.sdkAppId) };
    if (target.key) headers.Sign = signCallback(target.key, body);
    try {
      const response = await fetch(target.url, {
        method: 'POST', body, headers, redirect: 'error', signal: AbortSignal.any([abort, AbortSignal.timeout(CALLBACK_TIMEOUT_MS)]),
      });
      await response.body?.cancel();
      return response.ok ? undefined : `status ${response.status}`;
    } catch (error) {
      // The reason is returned: the caller logs it, counts it and retries.
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return (error as Error).name === 'TimeoutError' ? `no answer in ${CALLBACK_TIMEOUT_MS} ms` : cause ?? (error as Error).message;
    }
  }

  #figure(sdkAppId: number): { delivered: number; failures: number; dropped: number } {
    let figures = this.#figures.get(sdkAppId);
    if (!figures) this.#figures.set(sdkAppId, figures = { delivered: 0, failures: 0, dropped: 0 });
    return figures;
  }

  #drop(sdkAppId: number, reason: 'queue-full' | 'expired' | 'no-target'): void {
    this.#figure(sdkAppId).dropped++;
    this.#counters?.dropped.inc({ reason });
  }
}
