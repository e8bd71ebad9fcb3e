import type { FieldDefDto } from '../common/field-def.dto.js';

/**
 * The built-in `auto` template (ADR 0005, beyond the spec): every account's default pipeline starts with it,
 * so `POST /artifacts/upload` and `POST /extract` without template_id / extraction_schema work out of the box.
 * The engine classifies the document as one of DOCUMENT_KINDS and extracts that kind's standard fields below;
 * the result says which kind it chose in `document_type`. It is not a stored template (GET /templates does
 * not list it) and cannot be changed; `template_id: "auto"` selects it explicitly.
 */
export const AUTO_TEMPLATE_ID = 'auto';
export const AUTO_TEMPLATE_VERSION = 1;

export const DOCUMENT_KINDS = ['invoice', 'receipt', 'form', 'table_document', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The result key naming the kind the engine chose. */
export const DOCUMENT_TYPE_KEY = 'document_type';

const s = (key: string, label: string, description?: string): FieldDefDto => ({
  key,
  label,
  data_type: 'string',
  ...(description ? { description } : {}),
});
const d = (key: string, label: string): FieldDefDto => ({ key, label, data_type: 'date' });
const c = (key: string, label: string): FieldDefDto => ({ key, label, data_type: 'currency' });

/** The standard fields of each kind (all optional: a field not found is absent from the result). */
export const AUTO_STANDARD_FIELDS: Record<DocumentKind, FieldDefDto[]> = {
  invoice: [
    s('invoice_number', 'Invoice Number'),
    d('invoice_date', 'Invoice Date'),
    d('due_date', 'Due Date'),
    s('vendor_name', 'Vendor', 'The seller or issuer of the invoice'),
    s('customer_name', 'Bill To', 'The buyer or customer the invoice is addressed to'),
    c('subtotal', 'Subtotal'),
    c('tax_amount', 'Tax'),
    c('total_amount', 'Total'),
    {
      key: 'line_items',
      label: 'Line Items',
      data_type: 'table',
      fields: [
        s('description', 'Description'),
        { key: 'quantity', label: 'Quantity', data_type: 'number' },
        c('unit_price', 'Unit Price'),
        c('amount', 'Amount'),
      ],
    },
  ],
  receipt: [
    s('merchant_name', 'Merchant', 'The shop or business that issued the receipt'),
    d('transaction_date', 'Date'),
    c('subtotal', 'Subtotal'),
    c('tax_amount', 'Tax'),
    c('total_amount', 'Total'),
    s('payment_method', 'Payment Method'),
  ],
  form: [
    s('name', 'Name'),
    d('date', 'Date'),
    s('address', 'Address'),
    s('email', 'Email'),
    s('phone', 'Phone'),
    s('reference_number', 'Reference Number'),
  ],
  table_document: [s('title', 'Title', 'The heading of the document'), d('date', 'Date'), c('total_amount', 'Total')],
  other: [s('title', 'Title', 'The heading of the document'), d('date', 'Date')],
};

/** The schema snapshot stored on an `auto` job: the kind plus every kind's fields (sandbox results are synthesised from it). */
export const AUTO_TEMPLATE_SCHEMA: { fields: FieldDefDto[] } = {
  fields: [
    s(DOCUMENT_TYPE_KEY, 'Document Type', `One of ${DOCUMENT_KINDS.join(', ')}`),
    ...[
      ...new Map(
        Object.values(AUTO_STANDARD_FIELDS)
          .flat()
          .map((f) => [f.key, f]),
      ).values(),
    ],
  ],
};
