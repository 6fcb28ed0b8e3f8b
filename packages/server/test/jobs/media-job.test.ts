import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAG, ROLE_CODE } from '@conclave/protocol';
import { PRIVILEGE } from '@conclave/usersig';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { RtpForward } from '../../src/engine/media-engine.js';
import { Participant } from '../../src/room/participant.js';
import { Room } from '../../src/room/room.js';
import { MediaJob, type JobInput } from '../../src/jobs/media-job.js';

/*
 * MediaJob.setInputs on a real mix pipeline (the GStreamer controller): what it asks of the media engine's RTP
 * forwarding is recorded (the engine is not the unit here). An input whose media change is re-bound with the
 * media it now carries, whether or not its rectangle changed too.
 */

const dir = mkdtempSync(join(tmpdir(), 'conclave-media-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const link = { push: () => undefined, evict: () => undefined, release: () => undefined };
const rect = (x: number) => ({ x, y: 0, w: 80, h: 90, z: 1, fill: 0 as const, visible: true });

describe('MediaJob.setInputs', () => {
  it('re-binds an input whose audio or video changes, with or without a new layout; a move alone keeps the binding', async () => {
    const room = new Room('1400000001:i:91');
    const alice = new Participant('p-alice', 'alice', '1', ROLE_CODE.anchor, link, 't1');
    alice.flag = FLAG.VIDEO | FLAG.AUDIO;
    room.add(alice);
    const forwards: { wants: string; stopped: boolean }[] = [];
    const job = new MediaJob({
      id: 'job-1', kind: 'record-mix', sdkAppId: 1400000001, roomKey: room.key, roomRef: room.ref,
      spec: { kind: 'mix', width: 160, height: 90, fps: 5, videoBitrate: 100, gop: 2, audioBitrate: 32, audioSampleRate: 48000, audioChannels: 1, background: 0 },
      outputs: () => [{ type: 'file', path: join(dir, 'mix.mp4') }],
      inputs: [{ userId: 'alice', stream: 'main', video: true, audio: true, layout: rect(0) }],
      forwardRtp: (participantId, target): RtpForward => {
        const forward = { wants: `${participantId}:${target.videoPort ? 'v' : '-'}${target.audioPort ? 'a' : '-'}`, stopped: false };
        forwards.push(forward);
        return { stop: () => { forward.stopped = true; }, requestKeyframe: () => undefined };
      },
      logger: pino({ level: 'silent' }),
    });
    try {
      await job.start(20_000);
      job.reconcile(room);
      expect(forwards).toEqual([{ wants: 'p-alice:va', stopped: false }]);
      const set = async (input: Omit<JobInput, 'userId' | 'stream'>) => job.setInputs([{ userId: 'alice', stream: 'main', ...input }]);

      // Her video leaves the mix (no rectangle any more): the old forwarding stops, a new one carries audio only.
      await set({ video: false, audio: true });
      expect(forwards).toEqual([{ wants: 'p-alice:va', stopped: true }, { wants: 'p-alice:-a', stopped: false }]);
      // Back with a rectangle: video again.
      await set({ video: true, audio: true, layout: rect(80) });
      expect(forwards.map((f) => `${f.wants}${f.stopped ? ' stopped' : ''}`)).toEqual(['p-alice:va stopped', 'p-alice:-a stopped', 'p-alice:va']);
      // Her audio goes while her rectangle stays where it is: re-bound (video only).
      await set({ video: true, audio: false, layout: rect(80) });
      expect(forwards.map((f) => f.wants)).toEqual(['p-alice:va', 'p-alice:-a', 'p-alice:va', 'p-alice:v-']);
      // Only the rectangle moves: the binding stays.
      await set({ video: true, audio: false, layout: rect(0) });
      expect(forwards).toHaveLength(4);
      expect(forwards[3].stopped).toBe(false);
      expect(job.info().inputs).toEqual([{ userId: 'alice', stream: 'main', bound: true, lastRtpSeq: 0 }]);
    } finally {
      await job.stop();
    }
  }, 30_000);
});

describe('MediaJob and privilege bits', () => {
  it('38.9 each input carries only what its source may send and, when the job has a receiver, what that receiver may receive; a change of either re-binds', async () => {
    const room = new Room('1400000001:i:92');
    const user = (id: string, userId: string, privileges: number) => {
      const p = new Participant(id, userId, '1', ROLE_CODE.anchor, link, `t-${id}`);
      p.privileges = privileges;
      room.add(p);
      return p;
    };
    const { ENTER_ROOM, SEND_AUDIO, SEND_VIDEO, RECV_AUDIO, RECV_VIDEO } = PRIVILEGE;
    user('p-a', 'a', PRIVILEGE.ALL);
    const b = user('p-b', 'b', ENTER_ROOM | SEND_VIDEO);
    const forwarding = new Map<string, string>();
    let receiver = ENTER_ROOM | RECV_AUDIO;
    const job = (withReceiver: boolean, id: string) => new MediaJob({
      id, kind: 'cdn-mix', sdkAppId: 1400000001, roomKey: room.key, roomRef: room.ref, ownerUserId: 'a',
      ...(withReceiver ? { receiverPrivileges: () => receiver } : {}),
      spec: { kind: 'mix', width: 160, height: 90, fps: 5, videoBitrate: 100, gop: 2, audioBitrate: 32, audioSampleRate: 48000, audioChannels: 1, background: 0 },
      outputs: () => [{ type: 'file', path: join(dir, `${id}.mp4`) }],
      inputs: [{ userId: 'a', stream: 'main', video: true, audio: true, layout: rect(0) }, { userId: 'b', stream: 'main', video: true, audio: true, layout: rect(80) }],
      forwardRtp: (participantId, target): RtpForward => {
        const what = `${target.videoPort ? 'v' : '-'}${target.audioPort ? 'a' : '-'}`;
        forwarding.set(`${id}:${participantId}`, what);
        return { stop: () => { if (forwarding.get(`${id}:${participantId}`) === what) forwarding.delete(`${id}:${participantId}`); }, requestKeyframe: () => undefined };
      },
      logger: pino({ level: 'silent' }),
    });
    // A job of the app's backend (no receiver): the sources' send bits only. b may send video, not audio.
    const backend = job(false, 'backend');
    // A job a user started: also what that user may receive (a's own stream needs only a's send bits).
    const started = job(true, 'started');
    try {
      await Promise.all([backend.start(20_000), started.start(20_000)]);
      backend.reconcile(room);
      started.reconcile(room);
      expect(Object.fromEntries(forwarding)).toEqual({ 'backend:p-a': 'va', 'backend:p-b': 'v-', 'started:p-a': 'va' });
      // The receiver may now see: b's picture joins; b may now send audio too: its sound joins both.
      receiver |= RECV_VIDEO;
      b.privileges |= SEND_AUDIO;
      backend.reconcile(room);
      started.reconcile(room);
      expect(Object.fromEntries(forwarding)).toEqual({ 'backend:p-a': 'va', 'backend:p-b': 'va', 'started:p-a': 'va', 'started:p-b': 'va' });
      expect(started.info().inputs.map((i) => [i.userId, i.bound])).toEqual([['a', true], ['b', true]]);
    } finally {
      await Promise.all([backend.stop(), started.stop()]);
    }
  }, 30_000);
});
