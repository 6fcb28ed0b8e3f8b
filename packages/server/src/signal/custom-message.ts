import { DATA_RECORD, decodeRecords, encodeRecords, LIMITS, ROLE_CODE } from '@conclave/protocol';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';
import type { SignalDeps } from './signal-deps.js';

/**
 * A custom message from `sender`'s data link: dropped when the sender is no longer in the room, is an
 * audience, or is over the per-sender limit (30 messages and 8000 bytes per second); otherwise stamped
 * with the sender's tinyId and forwarded to the other participants of the same room only.
 */
export function relayCustomMessage(ctx: SignalDeps, sender: Participant, room: Room, data: Uint8Array): void {
  if (room.get(sender.userId) !== sender || sender.role === ROLE_CODE.audience) return;
  const records = decodeRecords(data);
  const payload = records?.find((r) => r.tag === DATA_RECORD.PAYLOAD);
  if (!records || !payload || payload.value.length === 0 || payload.value.length > LIMITS.MAX_CUSTOM_MESSAGE_BYTES) return;
  const verdict = ctx.customMessages.check(sender.id, payload.value.length);
  if (!verdict.ok) {
    ctx.signalObserver.emit({ type: 'refused', code: verdict.code });
    ctx.logger.debug({ room: room.key, userId: sender.userId }, verdict.message);
    return;
  }
  const stamped = encodeRecords([
    { tag: DATA_RECORD.TINY_ID, value: new TextEncoder().encode(sender.tinyId) },
    ...records.filter((r) => r.tag !== DATA_RECORD.TINY_ID),
  ]);
  for (const other of room.participants()) {
    if (other !== sender) ctx.dataLinks.send(other.id, stamped);
  }
}
