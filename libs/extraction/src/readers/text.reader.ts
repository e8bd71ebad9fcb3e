import { pageFromText } from '../layout/layout.builder.js';
import type { DocLayout } from '../layout/layout.types.js';

/** Decodes bytes as UTF-8, falling back to Latin-1 when the bytes are not valid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}

/** Form feeds separate pages in text exports (pdftotext, printers), so they become page breaks. */
export function readText(bytes: Uint8Array): DocLayout {
  const text = decodeText(bytes);
  const parts = text.split('\f').filter((p, i, a) => p.trim() !== '' || (i === 0 && a.length === 1));
  return { pages: parts.map((p, i) => pageFromText(p, i + 1)) };
}

/** RFC 4180 CSV (quoted fields, doubled quotes, `,` `;` or tab delimiter sniffed from the first line). */
export function parseCsv(text: string): string[][] {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const delim = [',', ';', '\t'].map((d) => [d, first.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === delim) (row.push(cell), (cell = ''));
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) (row.push(cell), rows.push(row));
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

/** Cells are laid out in fixed-width columns so the layout model sees them as separate segments. */
function tableToText(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.replace(/\s+/g, ' ').trim().length)));
  return rows
    .map((r) =>
      r
        .map((c, i) =>
          c
            .replace(/\s+/g, ' ')
            .trim()
            .padEnd(widths[i]! + 4),
        )
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

export function readCsv(bytes: Uint8Array): DocLayout {
  const rows = parseCsv(decodeText(bytes));
  return { pages: [pageFromText(tableToText(rows))], tables: [rows] };
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  euro: '€',
  pound: '£',
  yen: '¥',
  copy: '©',
};
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp < 0x110000 ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** HTML to text: block elements become line breaks, table rows become fixed-width rows; scripts/styles dropped. */
export function readHtml(bytes: Uint8Array): DocLayout {
  let html = decodeText(bytes);
  html = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '');
  const tables: string[][][] = [];
  html = html.replace(/<table\b[\s\S]*?<\/table\s*>/gi, (t) => {
    const rows: string[][] = [];
    for (const tr of t.matchAll(/<tr\b[\s\S]*?(?=<tr\b|<\/table)/gi)) {
      const cells = [...tr[0].matchAll(/<t[dh]\b[^>]*>([\s\S]*?)(?=<t[dh]\b|<\/tr|$)/gi)].map((c) =>
        decodeEntities(c[1]!.replace(/<[^>]+>/g, ' '))
          .replace(/\s+/g, ' ')
          .trim(),
      );
      if (cells.some((c) => c)) rows.push(cells);
    }
    tables.push(rows);
    return '\n' + tableToText(rows) + '\n';
  });
  const text = decodeEntities(
    html
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/?(p|div|h[1-6]|li|ul|ol|section|article|header|footer|address|pre|blockquote|dt|dd)\b[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, ' '),
  )
    .split('\n')
    .map((l) => (/ {4}/.test(l) ? l.trimEnd() : l.replace(/[ \t]+/g, ' ').trim()))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  return { pages: [pageFromText(text)], tables };
}
