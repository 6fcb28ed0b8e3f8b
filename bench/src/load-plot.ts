/**
 * The load bench's saturation curves as an SVG: one panel per shape, server CPU (cores) against forwarded
 * packets/s, a line per engine (the floor's in grey); steps past the limits drawn hollow; the legend gives each
 * engine's marginal µs per packet and its packets per CPU-second as a ratio to LiveKit's and to the floor's.
 */
import type { LoadCurve } from './load.js';

const COLORS: Record<string, string> = { embedded: '#d62728', janus: '#1f77b4', livekit: '#2ca02c', floor: '#7f7f7f' };
const W = 360;
const H = 260;
const PAD = 44;

function panel(shape: string, curves: LoadCurve[], x0: number): string {
  const points = curves.flatMap((c) => c.steps);
  const maxX = Math.max(1000, ...points.map((s) => s.packetsPerSecond)) * 1.05;
  const maxY = Math.max(0.2, ...points.map((s) => s.cores)) * 1.1;
  const sx = (v: number) => x0 + PAD + (v / maxX) * (W - PAD - 10);
  const sy = (v: number) => H - PAD + 10 - (v / maxY) * (H - PAD - 20);
  const parts = [
    `<text x="${x0 + W / 2}" y="16" text-anchor="middle" font-size="13">${shape}</text>`,
    `<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(maxX)}" y2="${sy(0)}" stroke="#000"/>`,
    `<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(0)}" y2="${sy(maxY)}" stroke="#000"/>`,
    `<text x="${x0 + W / 2}" y="${H - 4}" text-anchor="middle" font-size="11">forwarded packets/s (max ${maxX.toFixed(0)})</text>`,
    `<text x="${x0 + 12}" y="${H / 2}" font-size="11" transform="rotate(-90 ${x0 + 12} ${H / 2})" text-anchor="middle">server cores (max ${maxY.toFixed(2)})</text>`,
  ];
  for (const c of curves) {
    const color = COLORS[c.engine] ?? '#555';
    parts.push(`<polyline fill="none" stroke="${color}" points="${c.steps.map((s) => `${sx(s.packetsPerSecond).toFixed(1)},${sy(s.cores).toFixed(1)}`).join(' ')}"/>`);
    for (const s of c.steps) parts.push(`<circle cx="${sx(s.packetsPerSecond).toFixed(1)}" cy="${sy(s.cores).toFixed(1)}" r="3" fill="${s.saturated ? 'none' : color}" stroke="${color}"/>`);
  }
  // Each engine's packets per CPU-second as a ratio to LiveKit's and to the floor's (the table's "× …" rows).
  const ratio = (c: LoadCurve, reference: string, name: string) => {
    const r = curves.find((o) => o.engine === reference)?.fit;
    return r && c.fit && c.engine !== reference ? `, ${(r.marginalUs / c.fit.marginalUs).toFixed(2)}× ${name}` : '';
  };
  curves.forEach((c, i) => parts.push(`<text x="${x0 + PAD + 6}" y="${34 + i * 14}" font-size="11" fill="${COLORS[c.engine] ?? '#555'}">${c.engine}${c.fit ? `: ${c.fit.marginalUs.toFixed(1)} µs/pkt${ratio(c, 'livekit', 'LiveKit')}${ratio(c, 'floor', 'floor')}` : ''}</text>`));
  return parts.join('\n');
}

/** The SVG document. */
export function loadPlot(curves: readonly LoadCurve[]): string {
  const shapes = [...new Set(curves.map((c) => c.shape))];
  const body = shapes.map((shape, i) => panel(shape, curves.filter((c) => c.shape === shape), i * W)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.max(1, shapes.length) * W}" height="${H}" font-family="sans-serif">\n${body}\n</svg>\n`;
}
