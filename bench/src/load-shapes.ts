/**
 * The load bench's shapes (bench/README.md "Load: cost per forwarded packet"), scaled to a 2-core machine:
 * each is a list of steps, and a step is a set of publishers and subscribers for the generator.
 */
import type { LoadgenPublisher, LoadgenSubscriber } from '../../tests/e2e/src/harness/loadgen.js';
import type { LoadEngine } from './load-servers.js';

export type ShapeName = 'audio' | 'meeting' | 'meeting-small' | 'livestream';

export interface Shape {
  name: ShapeName;
  /** What a step of size n is. */
  describe: (n: number) => string;
  /** Step sizes, smallest first; stepping stops at the first step past the limits. */
  steps: number[];
  /** Engines that can run it (LiveKit has no small stream of its own: its counterpart is simulcast). */
  engines: LoadEngine[];
  users: (n: number) => { publishers: Omit<LoadgenPublisher, 'userSig'>[]; subscribers: Omit<LoadgenSubscriber, 'userSig'>[] };
}

const ALL: LoadEngine[] = ['embedded', 'janus', 'livekit', 'floor'];

function range(n: number, prefix: string): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
}

export const SHAPES: Record<ShapeName, Shape> = {
  audio: {
    name: 'audio',
    describe: (n) => `2 audio publishers × ${n} subscribers`,
    steps: [10, 25, 50, 100, 160],
    engines: ALL,
    users: (n) => {
      const pubs = range(2, 'ap');
      return {
        publishers: pubs.map((userId) => ({ userId, audio: true, video: false, small: false })),
        subscribers: range(n, 'as').map((userId) => ({ userId, sources: pubs.map((src) => ({ userId: src, audio: true, bigVideo: false, smallVideo: false })) })),
      };
    },
  },
  meeting: {
    name: 'meeting',
    describe: (n) => `${n} publishers (360p + audio) × ${n} subscribers taking all`,
    steps: [2, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40],
    engines: ALL,
    users: (n) => {
      const pubs = range(n, 'mp');
      return {
        publishers: pubs.map((userId) => ({ userId, audio: true, video: true, small: false })),
        subscribers: range(n, 'ms').map((userId) => ({ userId, sources: pubs.map((src) => ({ userId: src, audio: true, bigVideo: true, smallVideo: false })) })),
      };
    },
  },
  'meeting-small': {
    name: 'meeting-small',
    describe: (n) => `${n} publishers (360p + 180p small + audio) × ${n} subscribers taking every small stream`,
    steps: [2, 4, 8, 12, 16],
    engines: ['embedded', 'janus', 'floor'],
    users: (n) => {
      const pubs = range(n, 'sp');
      return {
        publishers: pubs.map((userId) => ({ userId, audio: true, video: true, small: true })),
        subscribers: range(n, 'ss').map((userId) => ({ userId, sources: pubs.map((src) => ({ userId: src, audio: true, bigVideo: false, smallVideo: true })) })),
      };
    },
  },
  livestream: {
    name: 'livestream',
    describe: (n) => `1 publisher (360p + audio) × ${n} subscribers`,
    steps: [10, 25, 50, 100, 160, 250, 400, 640, 1000, 1600, 2500],
    engines: ALL,
    users: (n) => ({
      publishers: [{ userId: 'lp1', audio: true, video: true, small: false }],
      subscribers: range(n, 'ls').map((userId) => ({ userId, sources: [{ userId: 'lp1', audio: true, bigVideo: true, smallVideo: false }] })),
    }),
  },
};
