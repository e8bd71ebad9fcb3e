import type { EInvoice, InvoiceConcept, LineConcept } from './einvoice.types.js';

/** Header concepts in the order a reader expects them, with their printed names. */
const HEADER_ROWS: [InvoiceConcept, string][] = [
  ['invoice_number', 'Invoice number'],
  ['invoice_date', 'Invoice date'],
  ['due_date', 'Due date'],
  ['delivery_date', 'Delivery date'],
  ['seller_name', 'Seller'],
  ['seller_address', 'Seller address'],
  ['seller_vat_id', 'Seller VAT ID'],
  ['seller_tax_number', 'Seller tax number'],
  ['buyer_name', 'Buyer'],
  ['buyer_address', 'Buyer address'],
  ['buyer_vat_id', 'Buyer VAT ID'],
  ['buyer_reference', 'Buyer reference'],
  ['order_reference', 'Order reference'],
  ['currency', 'Currency'],
  ['net_amount', 'Net amount'],
  ['tax_amount', 'Tax amount'],
  ['total_amount', 'Total'],
  ['prepaid_amount', 'Prepaid'],
  ['amount_due', 'Amount due'],
  ['payment_terms', 'Payment terms'],
  ['iban', 'IBAN'],
  ['bic', 'BIC'],
];
const LINE_COLUMNS: [LineConcept, string][] = [
  ['item_id', 'Item'],
  ['description', 'Description'],
  ['quantity', 'Quantity'],
  ['unit', 'Unit'],
  ['unit_price', 'Unit price'],
  ['tax_rate', 'Tax %'],
  ['amount', 'Amount'],
];

const cell = (v: unknown) =>
  v === undefined
    ? ''
    : String(v)
        .replace(/\|/g, '\\|')
        .replace(/\s*\n\s*/g, ' ');

/** Markdown of an e-invoice uploaded as XML (the `md` download): its header as a two-column table, then its lines. */
export function renderEInvoiceMarkdown(inv: EInvoice): string {
  const credit = inv.header.type_code === '381';
  const out = [`# ${credit ? 'Credit note' : 'Invoice'} ${cell(inv.header.invoice_number)}`.trim(), '', `_${inv.syntax} e-invoice_`, ''];
  const rows = HEADER_ROWS.filter(([c]) => inv.header[c] !== undefined);
  if (rows.length) out.push('| Field | Value |', '| --- | --- |', ...rows.map(([c, name]) => `| ${name} | ${cell(inv.header[c])} |`), '');
  const cols = LINE_COLUMNS.filter(([c]) => inv.lines.some((l) => l[c] !== undefined));
  if (inv.lines.length && cols.length) {
    out.push('## Line items', '', `| ${cols.map(([, n]) => n).join(' | ')} |`, `|${' --- |'.repeat(cols.length)}`);
    for (const l of inv.lines) out.push(`| ${cols.map(([c]) => cell(l[c])).join(' | ')} |`);
    out.push('');
  }
  return out.join('\n');
}
