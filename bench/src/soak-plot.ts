/** A tiny hand-written SVG line plot for the soak's curves (no dependency: a few polylines and labels). */

export interface Series {
  name: string;
  color: string;
  /** [x, y] points, x ascending. */
  points: [number, number][];
}

export interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const WIDTH = 760;
const PANEL_HEIGHT = 220;
const MARGIN = { left: 64, right: 170, top: 28, bottom: 34 };

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v: number) => (Math.abs(v) >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1));

function panel(p: Panel, top: number, xMax: number, xLabel: string): string {
  const all = p.series.flatMap((s) => s.points.map(([, y]) => y));
  const yMax = Math.max(1, ...all) * 1.1;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v: number) => MARGIN.left + (xMax > 0 ? (v / xMax) * plotW : 0);
  const y = (v: number) => top + MARGIN.top + plotH - (v / yMax) * plotH;
  const parts = [`<text x="${MARGIN.left}" y="${top + 18}" font-size="14" font-weight="bold">${esc(p.title)} (${esc(p.unit)})</text>`];
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end">${fmt(v)}</text>`);
  }
  for (let i = 0; i <= 5; i++) {
    const v = (xMax * i) / 5;
    parts.push(`<text x="${x(v)}" y="${top + PANEL_HEIGHT - 14}" font-size="11" text-anchor="middle">${fmt(v)}</text>`);
  }
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${top + PANEL_HEIGHT - 1}" font-size="11" text-anchor="middle">${esc(xLabel)}</text>`,
    `<rect x="${MARGIN.left}" y="${top + MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`);
  p.series.forEach((s, i) => {
    const points = s.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${points}"/>`,
      `<line x1="${WIDTH - MARGIN.right + 10}" x2="${WIDTH - MARGIN.right + 30}" y1="${top + MARGIN.top + 8 + i * 18}" y2="${top + MARGIN.top + 8 + i * 18}" stroke="${s.color}" stroke-width="2"/>`,
      `<text x="${WIDTH - MARGIN.right + 36}" y="${top + MARGIN.top + 12 + i * 18}" font-size="11">${esc(s.name)}</text>`);
  });
  return parts.join('\n');
}

/** Panels stacked vertically over one x axis (`xLabel`), as an SVG document. */
export function plotSvg(title: string, panels: Panel[], xLabel: string): string {
  const xMax = Math.max(0, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => x))));
  const height = 30 + panels.length * PANEL_HEIGHT;
  const body = panels.map((p, i) => panel(p, 30 + i * PANEL_HEIGHT, xMax, xLabel)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="${WIDTH / 2}" y="20" font-size="15" text-anchor="middle">${esc(title)}</text>
${body}
</svg>
`;
}
