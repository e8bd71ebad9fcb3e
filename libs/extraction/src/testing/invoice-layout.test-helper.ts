import type { ExtractionEngine, ExtractionSchema } from '../engine.types.js';
import { extractFromLayout } from '../extraction.engine.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { makePdf } from './pdf.test-helper.js';

// Building blocks of the synthetic invoice layouts (locate/semantic.invoice*.spec.ts): runs of text placed on A4
// pages, rendered as a text-layer PDF (pdfkit) or built directly as a layout.

/** The invoice schema of the evaluation corpus (same keys, labels and descriptions). */
export const invoiceSchema: ExtractionSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice number', data_type: 'string', description: 'The invoice or credit-note number as printed.' },
    { key: 'invoice_date', label: 'Invoice date', data_type: 'date', description: 'Date the invoice was issued.' },
    { key: 'due_date', label: 'Due date', data_type: 'date', description: 'Payment due date, if one is printed.' },
    { key: 'seller_name', label: 'Seller name', data_type: 'string', description: 'Name of the company or person issuing the invoice.' },
    { key: 'buyer_name', label: 'Buyer name', data_type: 'string', description: 'Name of the customer the invoice is addressed to.' },
    { key: 'currency', label: 'Currency', data_type: 'string', description: 'ISO 4217 code of the invoice currency, e.g. EUR or USD.' },
    {
      key: 'total_amount',
      label: 'Total',
      data_type: 'number',
      description: 'Grand total including tax, before any prepayment is deducted. Negative if printed negative (credit notes).',
    },
    { key: 'net_amount', label: 'Net amount', data_type: 'number', description: 'Total before tax.' },
    { key: 'tax_amount', label: 'Tax amount', data_type: 'number', description: 'Total VAT / sales tax.' },
    { key: 'vat_id', label: 'Seller VAT ID', data_type: 'string', description: "The seller's VAT identification number." },
    { key: 'iban', label: 'IBAN', data_type: 'string', description: 'IBAN of the account the seller wants to be paid into.' },
    {
      key: 'line_items',
      label: 'Line items',
      data_type: 'table',
      description: 'One row per invoiced item.',
      fields: [
        { key: 'description', label: 'Description', data_type: 'string' },
        { key: 'quantity', label: 'Quantity', data_type: 'number' },
        { key: 'unit_price', label: 'Unit price', data_type: 'number', description: 'Price per unit as printed on the line.' },
        { key: 'amount', label: 'Amount', data_type: 'number', description: 'Line total as printed.' },
      ],
    },
  ],
};

/** One run of text: `x` is its left edge, or its right edge when `right` (amount columns are right-aligned). */
export interface Item {
  x: number;
  y: number;
  t: string;
  size: number;
  right?: boolean;
  bold?: boolean;
}

export const L = (x: number, y: number, t: string, size = 9, bold = false): Item => ({ x, y, t, size, bold });
export const R = (x: number, y: number, t: string, size = 9, bold = false): Item => ({ x, y, t, size, right: true, bold });
/** Lines stacked under each other from (x, y). */
export const block = (x: number, y: number, lines: string[], size = 9, lead = size + 3): Item[] =>
  lines.map((t, i) => L(x, y + i * lead, t, size));
/** A table row: cells [x, text] left-aligned or [x, text, 'r'] right-aligned at x. */
export const row = (y: number, ...cells: [number, string, 'r'?][]): Item[] => cells.map(([x, t, r]) => (r ? R(x, y, t) : L(x, y, t)));

export async function pdfOf(pages: Item[][]): Promise<Uint8Array> {
  return makePdf(
    (d) => {
      pages.forEach((items, i) => {
        if (i > 0) d.addPage({ size: 'A4', margin: 0 });
        for (const it of items) {
          d.font(it.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(it.size);
          const x = it.right ? it.x - d.widthOfString(it.t) : it.x;
          d.text(it.t, x, it.y, { lineBreak: false });
        }
      });
    },
    { size: 'A4', margin: 0 },
  );
}

/** The same items as a text-layer layout (for scripts the PDF's standard fonts cannot print, e.g. Polish). */
export function layoutOf(pages: Item[][]): DocLayout {
  return {
    pages: pages.map((items, i) => {
      const words: Word[] = [];
      for (const it of items) {
        const cw = it.size * 0.5;
        const width = it.t.length * cw;
        let x = it.right ? it.x - width : it.x;
        for (const t of it.t.split(' ')) {
          words.push({ text: t, x0: x, x1: x + t.length * cw, y0: it.y, y1: it.y + it.size, conf: 1 });
          x += (t.length + 1) * cw;
        }
      }
      return buildPage(i + 1, 595, 842, words);
    }),
  };
}

export interface Case {
  name: string;
  pages: Item[][];
  want: Record<string, unknown>;
  /** Build a layout instead of a PDF (characters outside the standard PDF fonts' encoding). */
  layout?: boolean;
}

/** A case's result through the whole engine: its text-layer PDF, or its layout when `layout` is set. */
export async function extractCase(engine: ExtractionEngine, c: Case): Promise<Record<string, unknown>> {
  const out = c.layout
    ? extractFromLayout(layoutOf(c.pages), invoiceSchema)
    : await engine.extract({ bytes: await pdfOf(c.pages), mimeType: 'application/pdf', filename: 'invoice.pdf' }, invoiceSchema);
  return out.result;
}
