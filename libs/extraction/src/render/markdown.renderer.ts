import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line } from '../layout/layout.types.js';

function esc(s: string): string {
  return s.replace(/\|/g, '\\|');
}

function mdTable(rows: string[][]): string {
  const n = Math.max(...rows.map((r) => r.length));
  const pad = (r: string[]) => [...r, ...Array(n - r.length).fill('')];
  const [head, ...body] = rows.map(pad);
  return [`| ${head!.map(esc).join(' | ')} |`, `|${' --- |'.repeat(n)}`, ...body.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/**
 * Markdown of the layout: runs of ≥ 2 consecutive lines split into ≥ 3 columns become tables, lines
 * noticeably taller than the page's median become headings, other blocks become paragraphs.
 */
export function renderMarkdown(doc: DocLayout): string {
  const out: string[] = [];
  if (doc.tables?.length && doc.pages.length === 1 && doc.pages[0]!.lines.length === 0) {
    return doc.tables.map(mdTable).join('\n\n') + '\n';
  }
  for (const page of doc.pages) {
    if (doc.pages.length > 1) out.push(`<!-- page ${page.number} -->`);
    const heights = page.lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
    const median = heights[Math.floor(heights.length / 2)] ?? 1;
    for (const block of page.blocks) {
      let tableRun: string[][] = [];
      let para: string[] = [];
      const flushPara = () => {
        if (para.length) out.push(para.join('\n'));
        para = [];
      };
      const flushTable = () => {
        if (tableRun.length >= 2) out.push(mdTable(tableRun));
        else for (const r of tableRun) para.push(r.join(' '));
        tableRun = [];
      };
      for (const line of block.lines) {
        const segs = segments(line as Line, 1.5);
        if (segs.length >= 3) {
          flushPara();
          tableRun.push(segs.map((s) => s.text));
          continue;
        }
        flushTable();
        if (line.y1 - line.y0 > median * 1.35 && line.text.length < 120) {
          flushPara();
          out.push(`## ${line.text}`);
        } else para.push(line.text);
      }
      flushTable();
      flushPara();
    }
  }
  return out.join('\n\n') + '\n';
}
