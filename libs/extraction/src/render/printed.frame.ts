import type { FieldMeta } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';
import { turnWord, type Quarter } from '../readers/pdf.orientation.js';

/**
 * Boxes are reported on the page as printed: a page read turned (its text runs up or down the sheet, `Page.turned`)
 * has its fields' boxes turned back, so that a client drawing them on the page's picture finds them in place.
 */
export function inPrintedFrame(doc: DocLayout, meta: Record<string, FieldMeta>): void {
  for (const m of Object.values(meta)) {
    const page = m.bbox && doc.pages.find((p) => p.number === m.page);
    if (!page?.turned || !m.bbox) continue;
    const [x0, y0, x1, y1] = m.bbox;
    const back = turnWord({ x0, y0, x1, y1 }, (4 - page.turned) as Quarter, page.width, page.height);
    m.bbox = [back.x0, back.y0, back.x1, back.y1].map((v) => Math.round(v * 1000) / 1000) as FieldMeta['bbox'];
  }
}
