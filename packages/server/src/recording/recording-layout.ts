import { FLAG } from '@conclave/protocol';
import { PRIVILEGE, hasPrivilege } from '@conclave/usersig';
import { allowedWants } from '../auth/privileges.js';
import type { PadLayout } from '../jobs/job-process.js';
import type { JobInput } from '../jobs/media-job.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';

/**
 * Whose audio and video a recording takes (the cloud API's SubscribeStreamUserIds). A list entry is a user id,
 * or a prefix written `prefix.*$` (or `prefix.*`), the one pattern form the API documents. An `…Only` list that
 * is set takes only the users it names; an `…Except` list drops those it names.
 */
export interface StreamFilter {
  audioOnly?: readonly string[];
  audioExcept?: readonly string[];
  videoOnly?: readonly string[];
  videoExcept?: readonly string[];
}

/** A picture of a custom mix layout: a rectangle, and whose stream it shows (none: the next publisher in join order). */
export interface MixCell extends Omit<PadLayout, 'visible'> {
  userId?: string;
  stream: 'main' | 'aux';
}

/** A mixed recording's picture (the cloud API's MixLayoutParams). */
export interface MixLayout {
  /** float: one big picture, the others small along the bottom; screen: one big on the left, the others in a column on the right; grid: equal cells; custom: `cells`. */
  mode: 'float' | 'screen' | 'grid' | 'custom';
  cells: MixCell[];
  /** float and screen: whose picture is big (default: the first publisher with video). */
  mainUserId?: string;
  /** Background colour, 0xRRGGBB. */
  background: number;
}

/** What a room's recording takes and how a mix lays it out; changed live by the cloud API's ModifyCloudRecording. */
export interface RecordingOptions {
  filter?: StreamFilter;
  layout?: MixLayout;
}

const GRID: MixLayout = { mode: 'grid', cells: [], background: 0 };

function listed(list: readonly string[] | undefined, userId: string): boolean {
  return (list ?? []).some((entry) => {
    const prefix = /^(.*)\.\*\$?$/.exec(entry);
    return prefix ? userId.startsWith(prefix[1]) : entry === userId;
  });
}

/** Whether a recording with `filter` takes `userId`'s audio or video. */
export function takes(filter: StreamFilter | undefined, userId: string, kind: 'audio' | 'video'): boolean {
  const only = kind === 'audio' ? filter?.audioOnly : filter?.videoOnly;
  const except = kind === 'audio' ? filter?.audioExcept : filter?.videoExcept;
  if (only && only.length > 0 && !listed(only, userId)) return false;
  return !listed(except, userId);
}

/** A grid of `n` equal cells filling the picture, in join order. */
export function gridLayout(n: number, width: number, height: number): PadLayout[] {
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const w = Math.floor(width / cols);
  const h = Math.floor(height / rows);
  return Array.from({ length: n }, (_, i) => ({ x: (i % cols) * w, y: Math.floor(i / cols) * h, w, h, z: 1, fill: 1 as const, visible: true }));
}

/** The big picture first (full frame), the others small in rows of 4 (5 past 17 pictures) from the bottom left, above it. */
function floatLayout(n: number, width: number, height: number): PadLayout[] {
  const cols = n > 17 ? 5 : 4;
  const w = Math.floor(width / cols);
  const h = Math.floor(height / cols);
  return Array.from({ length: n }, (_, i) => i === 0
    ? { x: 0, y: 0, w: width, h: height, z: 0, fill: 0 as const, visible: true }
    : { x: ((i - 1) % cols) * w, y: height - (Math.floor((i - 1) / cols) + 1) * h, w, h, z: 1, fill: 0 as const, visible: true });
}

/** The big picture on the left, the others in one or two columns on the right, top down. */
function screenLayout(n: number, width: number, height: number): PadLayout[] {
  const columns = n - 1 > 8 ? 2 : 1;
  const w = Math.floor(width / 5);
  const h = Math.floor(height / 8);
  const left = width - columns * w;
  return Array.from({ length: n }, (_, i) => i === 0
    ? { x: 0, y: 0, w: left, h: height, z: 0, fill: 1 as const, visible: true }
    : { x: left + Math.floor((i - 1) / 8) * w, y: ((i - 1) % 8) * h, w, h, z: 1, fill: 0 as const, visible: true });
}

/**
 * What a recording may take of a user: what its flags say it sends and its privileges let it send (its SEND bits,
 * the allowedWants rule of docs/behaviour.md §6: a client that sends what its privateMapKey does not allow is
 * never recorded either).
 */
export function sentMedia(p: Participant): { audio: boolean; video: boolean } {
  const may = allowedWants({ audio: true, bigVideo: true, smallVideo: false, auxVideo: false }, p.privileges, PRIVILEGE.ALL);
  return { audio: (p.flag & FLAG.AUDIO) !== 0 && may.audio, video: (p.flag & FLAG.VIDEO) !== 0 && may.bigVideo };
}

/**
 * The users of a room who publish audio or video in the clear, and may: end-to-end encrypted streams cannot be
 * decoded here, so recordings and the cloud API's mixes leave them out (docs/behaviour.md §12).
 */
export function publishersOf(room: Room): Participant[] {
  return [...room.participants()].filter((p) => { const sent = sentMedia(p); return (sent.audio || sent.video) && !p.encrypted; });
}

/** The custom layout's pictures: cells naming a user get that user's stream, the others the remaining publishers in join order. */
function customInputs(cells: readonly MixCell[], withVideo: Participant[], audio: (p: Participant) => boolean): JobInput[] {
  const named = new Set(cells.flatMap((cell) => (cell.userId === undefined ? [] : [cell.userId])));
  const rest = withVideo.filter((p) => !named.has(p.userId));
  const inputs: JobInput[] = [];
  for (const { userId, stream, ...rect } of cells) {
    const user = userId === undefined ? rest.shift() : withVideo.find((p) => p.userId === userId);
    if (!user || inputs.some((i) => i.userId === user.userId && i.stream === stream)) continue;
    if (stream === 'aux' && !hasPrivilege(user.privileges, PRIVILEGE.SEND_SUB_VIDEO)) continue;
    inputs.push({ userId: user.userId, stream, video: true, audio: stream === 'main' && audio(user), layout: { ...rect, visible: true } });
  }
  return inputs;
}

/**
 * A mix of the room's publishers: the pictures of those with video whose video the filter takes, laid out
 * (a grid by default, join order), and the audio of everyone whose audio it takes. A user whose video is not
 * shown is an audio-only input; one with neither is not an input at all.
 */
export function mixInputs(room: Room, width: number, height: number, options: RecordingOptions = {}): JobInput[] {
  const { filter } = options;
  const layout = options.layout ?? GRID;
  const publishers = publishersOf(room);
  const audio = (p: Participant) => sentMedia(p).audio && takes(filter, p.userId, 'audio');
  let withVideo = publishers.filter((p) => sentMedia(p).video && takes(filter, p.userId, 'video'));
  let inputs: JobInput[];
  if (layout.mode === 'custom') {
    inputs = customInputs(layout.cells, withVideo, audio);
  } else {
    const main = withVideo.find((p) => p.userId === layout.mainUserId);
    if (main && layout.mode !== 'grid') withVideo = [main, ...withVideo.filter((p) => p !== main)];
    const place = layout.mode === 'float' ? floatLayout : layout.mode === 'screen' ? screenLayout : gridLayout;
    const cells = place(withVideo.length, width, height);
    inputs = withVideo.map((p, i) => ({ userId: p.userId, stream: 'main', video: true, audio: audio(p), layout: cells[i] }));
  }
  for (const p of publishers) {
    if (!inputs.some((i) => i.userId === p.userId && i.stream === 'main') && audio(p)) inputs.push({ userId: p.userId, stream: 'main', video: false, audio: true });
  }
  return inputs;
}
