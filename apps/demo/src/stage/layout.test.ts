import { describe, expect, it } from 'vitest';
import { arrangeTiles, fitGrid, LANDSCAPE, PORTRAIT, tilesPerPage } from './layout';

const EXACT = { minAspect: 16 / 9, maxAspect: 16 / 9, gap: 8 };

describe('fitGrid', () => {
  it('gives one tile the whole box, at its aspect ratio', () => {
    const fit = fitGrid(1, 1440, 800, EXACT);
    expect(fit).toMatchObject({ columns: 1, rows: 1, tileHeight: 800 });
    expect(fit.tileWidth).toBe(1422);
  });

  it('puts 2 tiles side by side on a wide box and stacked on a tall one', () => {
    expect(fitGrid(2, 1440, 800, LANDSCAPE)).toMatchObject({ columns: 2, rows: 1 });
    expect(fitGrid(2, 390, 700, PORTRAIT)).toMatchObject({ columns: 1, rows: 2 });
  });

  it('makes square grids for 4, 9 and 16 tiles on a 16:9 box', () => {
    expect(fitGrid(4, 1600, 900, EXACT)).toMatchObject({ columns: 2, rows: 2 });
    expect(fitGrid(9, 1600, 900, EXACT)).toMatchObject({ columns: 3, rows: 3 });
    expect(fitGrid(16, 1600, 900, EXACT)).toMatchObject({ columns: 4, rows: 4 });
  });

  it('keeps every tile within its allowed shape and the grid inside the box', () => {
    for (const options of [LANDSCAPE, PORTRAIT]) {
      for (const count of [1, 2, 3, 5, 6, 7, 12, 20]) {
        const fit = fitGrid(count, 1000, 600, options);
        expect(fit.columns * fit.tileWidth + (fit.columns - 1) * options.gap).toBeLessThanOrEqual(1000);
        expect(fit.rows * fit.tileHeight + (fit.rows - 1) * options.gap).toBeLessThanOrEqual(600);
        expect(fit.tileWidth / fit.tileHeight).toBeGreaterThanOrEqual(options.minAspect - 0.02);
        expect(fit.tileWidth / fit.tileHeight).toBeLessThanOrEqual(options.maxAspect + 0.02);
      }
    }
  });

  it('answers an empty box without dividing by zero', () => {
    expect(fitGrid(0, 100, 100).tileWidth).toBe(0);
    expect(fitGrid(3, 0, 100).tileWidth).toBe(0);
  });
});

describe('tilesPerPage', () => {
  it('keeps tiles at least 180 px wide, and at most 25 on a page', () => {
    expect(tilesPerPage(1400, 800)).toBe(25);
    const perPage = tilesPerPage(700, 400);
    expect(fitGrid(perPage, 700, 400).tileWidth).toBeGreaterThanOrEqual(180);
    expect(fitGrid(perPage + 1, 700, 400).tileWidth).toBeLessThan(180);
    expect(tilesPerPage(370, 600, PORTRAIT)).toBeLessThan(perPage + 1);
  });
});

describe('arrangeTiles', () => {
  const keys = Array.from({ length: 40 }, (_, index) => `t${index}`);

  it('pages a large meeting and shows every tile on exactly one page', () => {
    const first = arrangeTiles(keys, null, 1400, 800, 0);
    expect(first.pages).toBeGreaterThan(1);
    const seen = new Set<string>();
    for (let page = 0; page < first.pages; page++) {
      for (const [key, rect] of arrangeTiles(keys, null, 1400, 800, page).rects) if (rect) seen.add(key);
    }
    expect(seen.size).toBe(keys.length);
  });

  it('gives the focus tile most of the box and puts the others in a strip that stays inside it', () => {
    const arranged = arrangeTiles(keys.slice(0, 6), 't3', 1400, 800, 0);
    expect(arranged.mode).toBe('focus');
    const focus = arranged.rects.get('t3');
    expect(focus && focus.width * focus.height).toBeGreaterThan(1400 * 800 * 0.6);
    for (const rect of arranged.rects.values()) {
      if (!rect) continue;
      expect(rect.x + rect.width).toBeLessThanOrEqual(1400);
      expect(rect.y + rect.height).toBeLessThanOrEqual(800);
    }
  });

  it('puts the strip at the bottom of a tall box', () => {
    const arranged = arrangeTiles(['a', 'b', 'c'], 'a', 390, 700, 0);
    expect(arranged.rects.get('b')?.y).toBeGreaterThan(arranged.rects.get('a')?.height ?? 0);
  });
});
