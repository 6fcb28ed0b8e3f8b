import { ROLE_CODE } from '@conclave/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { recordCalls } from '../../src/room/call-records.js';
import { RoomEvents, type RoomEvent } from '../../src/room/room-events.js';
import { MAX_EVENTS_PER_USER_CALL } from '../../src/store/call-record-store.js';
import { Store } from '../../src/store/store.js';

/* The users' events of the call records (DescribeUserEvent's table): written from room events, bounded, purged. */

const stores: Store[] = [];
afterEach(() => { for (const store of stores.splice(0)) store.close(); });

const APP = 1400000077;
const place = { sdkAppId: APP, roomKey: `${APP}:i:5`, ref: '5' };

/** A room event without its place and time (each member of the union keeps its own fields). */
type Told = RoomEvent extends infer E ? (E extends RoomEvent ? Omit<E, keyof typeof place | 'at'> : never) : never;

function recorded(): { store: Store; tell: (event: Told, at: number) => void } {
  const store = Store.open(':memory:');
  stores.push(store);
  const events = new RoomEvents();
  recordCalls(events, store.callRecords, 0);
  return { store, tell: (event, at) => events.emit({ ...place, at, ...event } as RoomEvent) };
}

describe("the call records' user events", () => {
  it('a time-out is the network lost, then the exit; each user has their own', () => {
    const { store, tell } = recorded();
    tell({ type: 'room-created' }, 1_000);
    tell({ type: 'user-entered', userId: 'u', role: ROLE_CODE.anchor }, 1_000);
    tell({ type: 'user-entered', userId: 'v', role: ROLE_CODE.audience }, 1_500);
    tell({ type: 'media-started', userId: 'u', media: 'audio' }, 2_000);
    tell({ type: 'user-left', userId: 'u', role: ROLE_CODE.anchor, reason: 'timeout' }, 3_000);
    const of = (userId: string) => store.callRecords.userEvents({ sdkAppId: APP, commId: `${APP}_5_1`, userId, from: 0, to: 10_000 }).map((e) => `${e.kind}:${e.media ?? ''}:${e.detail ?? ''}@${e.at}`);
    expect(of('u')).toEqual(['entered::20@1000', 'started:audio:@2000', 'network-lost::@3000', 'left::timeout@3000']);
    expect(of('v')).toEqual(['entered::21@1500']);
    // Another app asking for the same CommId sees nothing.
    expect(store.callRecords.userEvents({ sdkAppId: APP + 1, commId: `${APP}_5_1`, userId: 'u', from: 0, to: 10_000 })).toEqual([]);
  });

  it('keeps at most MAX_EVENTS_PER_USER_CALL per user and call (entering and leaving always), and purges them with their room session', () => {
    const { store, tell } = recorded();
    tell({ type: 'room-created' }, 1_000);
    tell({ type: 'user-entered', userId: 'u', role: ROLE_CODE.anchor }, 1_000);
    for (let i = 0; i < MAX_EVENTS_PER_USER_CALL; i++) tell({ type: i % 2 ? 'media-stopped' : 'media-started', userId: 'u', media: 'video' }, 1_001 + i);
    tell({ type: 'user-left', userId: 'u', role: ROLE_CODE.anchor, reason: 'normal' }, 9_000);
    const all = store.callRecords.userEvents({ sdkAppId: APP, commId: `${APP}_5_1`, userId: 'u', from: 0, to: 10_000 });
    expect(all).toHaveLength(MAX_EVENTS_PER_USER_CALL + 1);
    expect(all.at(-1)).toMatchObject({ kind: 'left', detail: 'normal' });
    expect(store.callRecords.purge(1_001)).toBe(1);
    expect(store.callRecords.userEvents({ sdkAppId: APP, commId: `${APP}_5_1`, userId: 'u', from: 0, to: 10_000 })).toEqual([]);
  });
});
