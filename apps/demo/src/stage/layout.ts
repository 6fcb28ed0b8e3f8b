/** The grid that fits `count` tiles into a box with the largest tiles. */
export interface GridFit {
  readonly columns: number;
  readonly rows: number;
  /** Size of one tile in CSS pixels. */
  readonly tileWidth: number;
  readonly tileHeight: number;
}

export interface FitOptions {
  /** Narrowest tile shape allowed (width / height): the video is cropped (cover), never stretched. */
  readonly minAspect: number;
  readonly maxAspect: number;
  readonly gap: number;
}

/** Wide screens: tiles between 4:3 and 16:9. */
export const LANDSCAPE: FitOptions = { minAspect: 4 / 3, maxAspect: 16 / 9, gap: 8 };
/** Tall screens (phones): tiles may be portrait, down to 9:16, so one or two people fill the screen. */
export const PORTRAIT: FitOptions = { minAspect: 9 / 16, maxAspect: 16 / 9, gap: 6 };

/**
 * Tries every column count and keeps the one whose tiles are largest: each tile's shape stays within
 * [minAspect, maxAspect] and the grid, with `gap` between tiles, fits `width × height`. So 1 tile fills
 * the box, 2 sit side by side on a wide screen and stacked on a phone, 4 make 2×2, 9 make 3×3.
 */
export function fitGrid(count: number, width: number, height: number, options: FitOptions = LANDSCAPE): GridFit {
  const { minAspect, maxAspect, gap } = options;
  if (count <= 0 || width <= 0 || height <= 0) return { columns: 1, rows: 1, tileWidth: 0, tileHeight: 0 };
  let best: GridFit = { columns: 1, rows: count, tileWidth: 0, tileHeight: 0 };
  let bestArea = 0;
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const cellWidth = (width - gap * (columns - 1)) / columns;
    const cellHeight = (height - gap * (rows - 1)) / rows;
    if (cellWidth <= 0 || cellHeight <= 0) continue;
    let tileWidth = cellWidth;
    let tileHeight = cellHeight;
    if (cellWidth / cellHeight > maxAspect) tileWidth = cellHeight * maxAspect;
    else if (cellWidth / cellHeight < minAspect) tileHeight = cellWidth / minAspect;
    const area = tileWidth * tileHeight;
    if (area > bestArea + 0.5) {
      bestArea = area;
      best = { columns, rows, tileWidth: Math.floor(tileWidth), tileHeight: Math.floor(tileHeight) };
    }
  }
  return best;
}

/** How many tiles one page shows: below `minTileWidth` a tile is too small to see a face. */
export function tilesPerPage(width: number, height: number, options: FitOptions = LANDSCAPE, minTileWidth = 180, most = 25): number {
  let fit = 1;
  for (let count = 2; count <= most; count++) {
    if (fitGrid(count, width, height, options).tileWidth < minTileWidth) break;
    fit = count;
  }
  return fit;
}

/** Where one tile goes; null: not shown (another page, or no room in the film strip). */
export interface TileRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Arrangement {
  readonly rects: ReadonlyMap<string, TileRect | null>;
  readonly mode: 'grid' | 'focus';
  readonly page: number;
  readonly pages: number;
  /** Tiles of the film strip that did not fit. */
  readonly hiddenInStrip: number;
}

/**
 * Places every tile in the stage box. Without a focus tile: a grid of the current page. With one (a
 * screen share, or a pinned tile): the focus tile big, the others in a film strip at the right of a wide
 * box or at the bottom of a tall one. Tiles keep their place in one absolutely positioned layer, so a
 * layout change never remounts a video.
 */
export function arrangeTiles(keys: readonly string[], focusKey: string | null, width: number, height: number, page: number): Arrangement {
  const rects = new Map<string, TileRect | null>();
  const portrait = height > width;
  const options = portrait ? PORTRAIT : LANDSCAPE;
  const { gap } = options;
  if (focusKey && keys.includes(focusKey) && keys.length > 1) {
    const others = keys.filter((key) => key !== focusKey);
    let hidden = 0;
    if (!portrait) {
      const stripWidth = Math.round(Math.min(280, Math.max(160, width * 0.18)));
      const tileHeight = Math.round(stripWidth * 9 / 16);
      const fits = Math.max(1, Math.floor((height + gap) / (tileHeight + gap)));
      rects.set(focusKey, { x: 0, y: 0, width: width - stripWidth - gap, height });
      others.forEach((key, index) => {
        rects.set(key, index < fits ? { x: width - stripWidth, y: index * (tileHeight + gap), width: stripWidth, height: tileHeight } : null);
      });
      hidden = Math.max(0, others.length - fits);
    } else {
      const stripHeight = Math.round(Math.min(160, Math.max(90, height * 0.18)));
      const tileWidth = Math.round(stripHeight * 4 / 3);
      const fits = Math.max(1, Math.floor((width + gap) / (tileWidth + gap)));
      rects.set(focusKey, { x: 0, y: 0, width, height: height - stripHeight - gap });
      others.forEach((key, index) => {
        rects.set(key, index < fits ? { x: index * (tileWidth + gap), y: height - stripHeight, width: tileWidth, height: stripHeight } : null);
      });
      hidden = Math.max(0, others.length - fits);
    }
    return { rects, mode: 'focus', page: 0, pages: 1, hiddenInStrip: hidden };
  }
  const perPage = tilesPerPage(width, height, options);
  const pages = Math.max(1, Math.ceil(keys.length / perPage));
  const current = Math.min(Math.max(0, page), pages - 1);
  const shown = keys.slice(current * perPage, (current + 1) * perPage);
  const fit = fitGrid(shown.length, width, height, options);
  const gridWidth = fit.columns * fit.tileWidth + (fit.columns - 1) * gap;
  const gridHeight = fit.rows * fit.tileHeight + (fit.rows - 1) * gap;
  const left = (width - gridWidth) / 2;
  const top = (height - gridHeight) / 2;
  for (const key of keys) rects.set(key, null);
  shown.forEach((key, index) => {
    const row = Math.floor(index / fit.columns);
    const column = index % fit.columns;
    // The last row, when short, is centred.
    const inRow = row === fit.rows - 1 ? shown.length - row * fit.columns : fit.columns;
    const rowLeft = left + ((fit.columns - inRow) * (fit.tileWidth + gap)) / 2;
    rects.set(key, {
      x: Math.round(rowLeft + column * (fit.tileWidth + gap)),
      y: Math.round(top + row * (fit.tileHeight + gap)),
      width: fit.tileWidth,
      height: fit.tileHeight,
    });
  });
  return { rects, mode: 'grid', page: current, pages, hiddenInStrip: 0 };
}
