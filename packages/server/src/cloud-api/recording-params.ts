import type { MixCell, MixLayout, RecordingOptions, StreamFilter } from '../recording/recording-layout.js';
import { invalid } from './cloud-api-error.js';
import { integer, oneOf, type Params } from './params.js';

/** The most user ids per subscribe list, and pictures per custom layout (the API's limits). */
const MAX_SUBSCRIBE_IDS = 32;
const MAX_CELLS = 25;
/** Coordinates of a custom layout's pictures: 0 to 1920 (the API's range). */
const MAX_COORD = 1920;

function idList(params: Params, name: string): string[] | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_SUBSCRIBE_IDS || !value.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 128)) {
    throw invalid(name, `must be an array of at most ${MAX_SUBSCRIBE_IDS} user ids (or prefix.*$ patterns)`);
  }
  return value as string[];
}

function object(params: Params, name: string): Params | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(name, 'must be an object');
  return value as Params;
}

/** SubscribeStreamUserIds: the four lists (an absent list filters nothing). */
export function streamFilterOf(params: Params): StreamFilter | undefined {
  const lists = object(params, 'SubscribeStreamUserIds');
  if (!lists) return undefined;
  const filter: StreamFilter = {};
  const names = { audioOnly: 'SubscribeAudioUserIds', audioExcept: 'UnSubscribeAudioUserIds', videoOnly: 'SubscribeVideoUserIds', videoExcept: 'UnSubscribeVideoUserIds' } as const;
  for (const [field, name] of Object.entries(names) as [keyof StreamFilter, string][]) {
    const list = idList(lists, name);
    if (list) filter[field] = list;
  }
  return filter;
}

/** MixLayout.RenderMode (0 stretch, 1 crop (default), 2 fit with bars, 3 crop at most 20 %) as a picture's fill. */
const FILL_OF_RENDER_MODE: Record<number, MixCell['fill']> = { 0: 2, 1: 0, 2: 1, 3: 0 };

function cellOf(entry: unknown): MixCell {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid('MixLayoutList', 'must be a list of MixLayout objects');
  const cell = entry as Params;
  const userId = cell.UserId;
  if (userId !== undefined && userId !== null && (typeof userId !== 'string' || userId.length > 128)) throw invalid('UserId', 'must be a user id');
  return {
    x: integer(cell, 'Left', 0, MAX_COORD), y: integer(cell, 'Top', 0, MAX_COORD), w: integer(cell, 'Width', 1, MAX_COORD), h: integer(cell, 'Height', 1, MAX_COORD),
    z: cell.ImageLayer === undefined ? 0 : integer(cell, 'ImageLayer', 0, 1000),
    fill: FILL_OF_RENDER_MODE[oneOf(cell, 'RenderMode', [0, 1, 2, 3], 1)],
    stream: oneOf(cell, 'MediaId', [0, 1], 0) === 1 ? 'aux' : 'main',
    ...(typeof userId === 'string' && userId !== '' ? { userId } : {}),
  };
}

/** MixLayoutParams: the layout mode, a custom layout's pictures, the big picture's user, the background colour. */
export function mixLayoutOf(params: Params): MixLayout | undefined {
  const layout = object(params, 'MixLayoutParams');
  if (!layout) return undefined;
  const mode = ({ 1: 'float', 2: 'screen', 3: 'grid', 4: 'custom' } as const)[integer(layout, 'MixLayoutMode', 1, 4) as 1 | 2 | 3 | 4];
  const list = layout.MixLayoutList;
  if (mode === 'custom' && (!Array.isArray(list) || list.length === 0 || list.length > MAX_CELLS)) throw invalid('MixLayoutList', `must list 1 to ${MAX_CELLS} pictures for MixLayoutMode 4`);
  const color = layout.BackGroundColor;
  if (color !== undefined && color !== null && (typeof color !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(color))) throw invalid('BackGroundColor', 'must be #RRGGBB');
  const main = layout.MaxResolutionUserId;
  if (main !== undefined && main !== null && (typeof main !== 'string' || main.length > 128)) throw invalid('MaxResolutionUserId', 'must be a user id');
  return {
    mode,
    cells: mode === 'custom' ? (list as unknown[]).map(cellOf) : [],
    background: typeof color === 'string' ? Number.parseInt(color.slice(1), 16) : 0,
    ...(typeof main === 'string' && main !== '' ? { mainUserId: main } : {}),
  };
}

/** The options of a CreateCloudRecording (RecordParams.SubscribeStreamUserIds, MixLayoutParams) or a ModifyCloudRecording (both at the top). */
export function recordingOptionsOf(filterFrom: Params, layoutFrom: Params): RecordingOptions {
  const filter = streamFilterOf(filterFrom);
  const layout = mixLayoutOf(layoutFrom);
  return { ...(filter ? { filter } : {}), ...(layout ? { layout } : {}) };
}
