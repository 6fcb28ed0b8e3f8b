import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAG, ROLE_CODE } from '@conclave/protocol';
import { PRIVILEGE } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedEngine } from '../../src/engine/embedded/embedded-engine.js';
import { JobManager } from '../../src/jobs/job-manager.js';
import { createLogger } from '../../src/log/logger.js';
import { Participant } from '../../src/room/participant.js';
import { RoomRegistry } from '../../src/room/room.js';
import { mixInputs } from '../../src/recording/recording-layout.js';
import { RecordingManager } from '../../src/recording/recording-manager.js';

/*
 * Issue 38.9: recordings take only what each user may send (its SEND bits), whatever its flags say — a user whose
 * privateMapKey changed (switch-role) keeps its flags, and a client may send what its key does not allow.
 */

const APP = { sdkAppId: 1400000399, secretKey: 'recording-rights-secret-key-012345', recording: 'per-stream' as const };
const link = { push: () => undefined, evict: () => undefined, release: () => undefined };
const AV = FLAG.AUDIO | FLAG.VIDEO;

describe('38.9 recordings and the SEND privilege bits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recording-rights-'));
  const engine = new EmbeddedEngine({ iceAddress: '127.0.0.1' });
  const rooms = new RoomRegistry();
  const logger = createLogger('silent');
  const jobs = new JobManager({ engine, rooms, logger });
  let recordings: RecordingManager;

  beforeAll(() => {
    recordings = new RecordingManager({ jobs, apps: [APP], media: { recordingPath: dir, recordingRetentionDays: 1, mixImagePath: join(dir, 'images') }, logger });
  });
  afterAll(async () => {
    for (const room of rooms.rooms()) await recordings.stopRoom(room.key);
    recordings.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A room of users whose flags say audio and video, with the given privileges, in join order. */
  function roomOf(roomId: string, users: [string, number][]) {
    const room = rooms.getOrCreate(RoomRegistry.key(APP.sdkAppId, roomId, false));
    users.forEach(([userId, privileges], i) => {
      const p = new Participant(`${roomId}-p${i}`, userId, String(i), ROLE_CODE.anchor, link, `t${i}`);
      p.flag = AV;
      p.privileges = privileges;
      engine.joinRoom(p.id, room.key);
      room.add(p);
    });
    return room;
  }

  it('38.9 a per-stream recording takes of each user only what it may send; one that may send nothing is not recorded', () => {
    const room = roomOf('4301', [
      ['full', PRIVILEGE.ALL],
      ['eyes', PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_VIDEO],
      ['nothing', PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO],
    ]);
    recordings.startRoom(room, 'per-stream');
    const inputs = recordings.jobsOf(room.key).map((job) => job.options.inputs[0]).map((i) => `${i?.userId}:${i?.video ? 'v' : '-'}${i?.audio ? 'a' : '-'}`).sort();
    expect(inputs).toEqual(['eyes:v-', 'full:va']);
  });

  it('38.9 a mixed recording (and the cloud API\'s mixes of the same inputs) takes only what each user may send', () => {
    const room = roomOf('4302', [
      ['full', PRIVILEGE.ALL],
      ['ears', PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO],
      ['nothing', PRIVILEGE.ENTER_ROOM],
    ]);
    expect(mixInputs(room, 640, 360).map((i) => `${i.userId}:${i.video ? 'v' : '-'}${i.audio ? 'a' : '-'}`)).toEqual(['full:va', 'ears:-a']);
  });
});
