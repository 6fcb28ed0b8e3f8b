import { DATA_RECORD, decodeRecords, encodeRecords, LIMITS, readUint32, uint32Bytes } from '@conclave/protocol';
import type { Emitter } from '../common/emitter.js';
import { invalidOperation, MESSAGE } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import type { DataLink } from '../transport/data-link.js';
import type { TRTCEventTypes } from '../types.js';
import { ORDERING, realTimers, StreamOrderer, type Timers } from './orderer.js';
import { RateWindow } from './rate-window.js';

/** Sequence numbers start at a random value below this (docs/behaviour.md §9). */
export const SEQ_START_BELOW = 16383;

/** What the messages need from the room. */
export interface MessageContext {
  readonly events: Emitter<TRTCEventTypes>;
  /** The userId of the remote user with this tinyId, if announced. */
  userIdOf(tinyId: string): string | undefined;
  /** The open data link, if any. */
  link(): DataLink | undefined;
}

interface Pending {
  cmdId: number;
  seq: number;
  data: ArrayBuffer;
}

/**
 * Custom messages (docs/behaviour.md §3, §9): numbered per cmdId stream, limited to 30 messages and 8000 bytes per
 * second, sent on the data link; received messages are put back in order per sender and stream, and a
 * message from a user not yet announced waits up to 2 s for its peer join.
 */
export class CustomMessages {
  private readonly _ctx: MessageContext;
  private readonly _timers: Timers;
  private readonly _window = new RateWindow(LIMITS.MAX_CUSTOM_MESSAGES_PER_SECOND, LIMITS.MAX_CUSTOM_MESSAGE_BYTES_PER_SECOND);
  private readonly _nextSeq = new Map<number, number>();
  private readonly _orderers = new Map<string, StreamOrderer<Pending>>();
  private readonly _unknown = new Map<string, { items: Pending[]; timer: unknown }>();

  constructor(ctx: MessageContext, timers: Timers = realTimers) {
    this._ctx = ctx;
    this._timers = timers;
  }

  /**
   * Sends a validated message. Throws INVALID_OPERATION 'call frequency limit exceeded' beyond the rate
   * limits, and when there is no data link.
   */
  send(cmdId: number, data: ArrayBuffer): void {
    const link = this._ctx.link();
    if (!link) throw invalidOperation(undefined, 'the data link for custom messages is not connected', 'sendCustomMessage');
    if (!this._window.take(data.byteLength)) throw invalidOperation(undefined, MESSAGE.CALL_FREQUENCY, 'sendCustomMessage');
    const seq = this._nextSeq.get(cmdId) ?? Math.floor(Math.random() * SEQ_START_BELOW);
    this._nextSeq.set(cmdId, seq + 1);
    const sent = link.send(encodeRecords([
      { tag: DATA_RECORD.CMD_ID, value: new Uint8Array([cmdId]) },
      { tag: DATA_RECORD.SEQ, value: uint32Bytes(seq) },
      { tag: DATA_RECORD.PAYLOAD, value: new Uint8Array(data) },
    ]));
    if (!sent) log.warn('custom message dropped: the data link is not open');
  }

  /** A message from the data link. */
  receive(bytes: Uint8Array): void {
    const records = decodeRecords(bytes);
    if (!records) return;
    const field = (tag: number) => records.find((r) => r.tag === tag)?.value;
    const tinyId = field(DATA_RECORD.TINY_ID);
    const payload = field(DATA_RECORD.PAYLOAD);
    const cmdId = field(DATA_RECORD.CMD_ID)?.[0];
    const seq = field(DATA_RECORD.SEQ);
    if (!tinyId || !payload || cmdId === undefined || !seq) return;
    const item: Pending = { cmdId, seq: readUint32(seq), data: payload.slice().buffer };
    const sender = new TextDecoder().decode(tinyId);
    if (this._ctx.userIdOf(sender) === undefined) {
      this._holdForJoin(sender, item);
      return;
    }
    this._order(sender, item);
  }

  /** A user was announced: its held messages go on. */
  onPeerJoin(tinyId: string): void {
    const held = this._unknown.get(tinyId);
    if (!held) return;
    this._timers.clear(held.timer);
    this._unknown.delete(tinyId);
    for (const item of held.items) this._order(tinyId, item);
  }

  private _holdForJoin(tinyId: string, item: Pending): void {
    let held = this._unknown.get(tinyId);
    if (!held) {
      const timer = this._timers.set(() => {
        this._unknown.delete(tinyId);
        log.warn(`custom messages from unknown tinyId ${tinyId} dropped: no peer join within ${ORDERING.UNKNOWN_USER_WAIT_MS} ms`);
      }, ORDERING.UNKNOWN_USER_WAIT_MS);
      held = { items: [], timer };
      this._unknown.set(tinyId, held);
    }
    if (held.items.length < 1000) held.items.push(item);
  }

  private _order(tinyId: string, item: Pending): void {
    const key = `${tinyId}:${item.cmdId}`;
    let orderer = this._orderers.get(key);
    if (!orderer) {
      orderer = new StreamOrderer<Pending>((seq, pending) => this._emit(tinyId, seq, pending), this._timers);
      this._orderers.set(key, orderer);
    }
    orderer.push(item.seq, item);
  }

  private _emit(tinyId: string, seq: number, item: Pending): void {
    const userId = this._ctx.userIdOf(tinyId);
    if (userId === undefined) return;
    this._ctx.events.emit('custom-message', { userId, cmdId: item.cmdId, seq, data: item.data });
  }

  /** Forgets every stream (the room is left). */
  reset(): void {
    for (const orderer of this._orderers.values()) orderer.close();
    this._orderers.clear();
    for (const held of this._unknown.values()) this._timers.clear(held.timer);
    this._unknown.clear();
  }
}
