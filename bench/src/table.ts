/** One result row. */
export interface Row {
  benchmark: string;
  figure: string;
  unit: string;
  notes: string;
}

const COLUMNS: (keyof Row)[] = ['benchmark', 'figure', 'unit', 'notes'];

/** Renders rows as an aligned Markdown-style table (readable as plain text too). */
export function renderTable(rows: readonly Row[]): string {
  const widths = COLUMNS.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  return [
    line(COLUMNS.map((c) => c)),
    `|${widths.map((w, i) => (i === 1 ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map((r) => line(COLUMNS.map((c) => r[c]))),
  ].join('\n');
}
