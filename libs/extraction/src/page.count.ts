import type { DocLayout } from './layout/layout.types.js';
import type { InflationLimits } from './readers/pdf.inflation.js';
import { pdfPageCount } from './readers/pdf.reader.js';
import { readText } from './readers/text.reader.js';
import { isTiff, tiffPageCount } from './readers/tiff.reader.js';
import type { DocKind } from './type.sniffer.js';

/**
 * A document's page count without reading any page (ADR 0005: the hold is re-sized to it first): a PDF's page tree,
 * a TIFF's page directories, a text's form-feed pages (splitting text costs nothing); any other image, CSV and HTML
 * are one page. The same pages the readers then produce.
 */
export async function countDocumentPages(
  kind: DocKind,
  bytes: Uint8Array,
  inflation?: InflationLimits,
  maxPages?: number,
): Promise<number> {
  switch (kind) {
    case 'pdf':
      return pdfPageCount(bytes, inflation, maxPages);
    case 'image':
      return isTiff(bytes) ? tiffPageCount(bytes) : 1;
    case 'text':
      return readText(bytes).pages.length;
    default:
      return 1;
  }
}

/** The first `maxPages` pages of a read document. */
export function firstPages(doc: DocLayout, maxPages: number): DocLayout {
  return doc.pages.length <= maxPages ? doc : { ...doc, pages: doc.pages.slice(0, maxPages) };
}
