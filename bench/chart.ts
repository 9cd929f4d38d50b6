/** One bar of the chart: a label, its requests per second, and a caption (p99 or ratio). */
export interface Bar {
  label: string;
  value: number;
  caption: string;
}

/** A group of bars: one scenario. */
export interface Group {
  title: string;
  bars: Bar[];
}

const WIDTH = 640;
const LABEL = 150;
const BAR_AREA = 330;
const ROW = 22;

/** A small hand-written SVG of horizontal bars (requests per second), one group per scenario. */
export function barChart(title: string, groups: Group[]): string {
  const max = Math.max(1, ...groups.flatMap((group) => group.bars.map((bar) => bar.value)));
  const parts: string[] = [];
  let y = 30;
  parts.push(`<text x="8" y="20" font-weight="bold">${escape(title)}</text>`);
  for (const group of groups) {
    y += 18;
    parts.push(`<text x="8" y="${y}" font-weight="bold" fill="#333">${escape(group.title)}</text>`);
    y += 6;
    for (const bar of group.bars) {
      const width = Math.max(1, Math.round((bar.value / max) * BAR_AREA));
      const color = bar.label.startsWith('mock') ? '#2f7ed8' : bar.label.startsWith('prism') ? '#d8672f' : '#888';
      parts.push(`<text x="8" y="${y + 14}">${escape(bar.label)}</text>`);
      parts.push(`<rect x="${LABEL}" y="${y + 2}" width="${width}" height="${ROW - 6}" fill="${color}"/>`);
      parts.push(`<text x="${LABEL + width + 6}" y="${y + 14}">${Math.round(bar.value).toLocaleString('en-US')} req/s ${escape(bar.caption)}</text>`);
      y += ROW;
    }
  }
  const height = y + 12;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
