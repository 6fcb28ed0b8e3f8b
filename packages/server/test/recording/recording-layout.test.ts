import { FLAG, ROLE_CODE } from '@conclave/protocol';
import { describe, expect, it } from 'vitest';
import { Participant } from '../../src/room/participant.js';
import { Room } from '../../src/room/room.js';
import { mixInputs, takes } from '../../src/recording/recording-layout.js';

const link = { push: () => undefined, evict: () => undefined, release: () => undefined };

/** A room of users publishing what their flags say, in join order. */
function roomOf(users: [string, number][]): Room {
  const room = new Room('1400000001:i:77');
  users.forEach(([userId, flag], i) => {
    const p = new Participant(`p${i}`, userId, String(i), ROLE_CODE.anchor, link, `t${i}`);
    p.flag = flag;
    room.add(p);
  });
  return room;
}

const AV = FLAG.VIDEO | FLAG.AUDIO;
const summary = (inputs: ReturnType<typeof mixInputs>) => inputs.map((i) => `${i.userId}:${i.stream}:${i.video ? 'v' : '-'}${i.audio ? 'a' : '-'}`);

describe("a mixed recording's inputs (what ModifyCloudRecording changes live)", () => {
  it('the subscribe lists drop a user’s video (kept as audio), a user’s audio, or the user, by id or prefix.*$', () => {
    const room = roomOf([['alice', AV], ['bob', AV], ['carol', FLAG.AUDIO], ['guest-1', AV]]);
    expect(summary(mixInputs(room, 640, 360))).toEqual(['alice:main:va', 'bob:main:va', 'guest-1:main:va', 'carol:main:-a']);
    const noBobVideo = mixInputs(room, 640, 360, { filter: { videoExcept: ['bob'] } });
    expect(summary(noBobVideo)).toEqual(['alice:main:va', 'guest-1:main:va', 'bob:main:-a', 'carol:main:-a']);
    // Bob's picture is gone: the two left share the grid.
    expect(noBobVideo.filter((i) => i.layout).map((i) => i.layout?.w)).toEqual([320, 320]);
    expect(summary(mixInputs(room, 640, 360, { filter: { videoOnly: ['alice'], audioExcept: ['guest.*$', 'carol'] } }))).toEqual(['alice:main:va', 'bob:main:-a']);
    expect(summary(mixInputs(room, 640, 360, { filter: { audioOnly: ['alice'], videoExcept: ['guest-1'] } }))).toEqual(['alice:main:va', 'bob:main:v-']);
    expect(takes({ videoExcept: ['guest.*'] }, 'guest-2', 'video')).toBe(false);
    expect(takes({ videoExcept: ['guest.*'] }, 'host', 'video')).toBe(true);
    expect(takes({ audioOnly: [] }, 'anyone', 'audio')).toBe(true);
  });

  it('layouts: a custom layout places named users and fills the rest in join order; float and screen make one picture big', () => {
    const room = roomOf([['alice', AV], ['bob', AV], ['carol', AV]]);
    const custom = mixInputs(room, 640, 360, {
      layout: {
        mode: 'custom', background: 0, cells: [
          { x: 0, y: 0, w: 320, h: 360, z: 0, fill: 0, stream: 'main', userId: 'carol' },
          { x: 320, y: 0, w: 320, h: 180, z: 1, fill: 1, stream: 'main' },
        ],
      },
    });
    expect(custom.map((i) => [i.userId, i.video, i.layout && [i.layout.x, i.layout.y, i.layout.w, i.layout.h]])).toEqual([
      ['carol', true, [0, 0, 320, 360]], ['alice', true, [320, 0, 320, 180]], ['bob', false, undefined],
    ]);
    const float = mixInputs(room, 640, 360, { layout: { mode: 'float', background: 0, cells: [], mainUserId: 'bob' } });
    expect(float[0]).toMatchObject({ userId: 'bob', layout: { x: 0, y: 0, w: 640, h: 360, z: 0 } });
    expect(float.slice(1).map((i) => [i.userId, i.layout?.y, i.layout?.z])).toEqual([['alice', 270, 1], ['carol', 270, 1]]);
    const screen = mixInputs(room, 640, 360, { layout: { mode: 'screen', background: 0, cells: [] } });
    expect(screen.map((i) => [i.userId, i.layout?.x, i.layout?.w])).toEqual([['alice', 0, 512], ['bob', 512, 128], ['carol', 512, 128]]);
  });
});
