/**
 * An e-invoice's data in the syntax-neutral terms of EN 16931 (the semantic model behind CII and UBL), reduced to the
 * concepts an extraction schema asks for. Comments name the EN 16931 business terms (BT-…).
 */
export type InvoiceConcept =
  /** BT-1 */
  | 'invoice_number'
  /** BT-2 */
  | 'invoice_date'
  /** BT-9 */
  | 'due_date'
  /** BT-72 */
  | 'delivery_date'
  /** BT-3: 380 invoice, 381 credit note, … */
  | 'type_code'
  /** BT-5 */
  | 'currency'
  /** BT-27, BT-31, BT-32, BT-34 */
  | 'seller_name'
  | 'seller_vat_id'
  | 'seller_tax_number'
  | 'seller_email'
  /** BT-35…BT-40 joined on one line */
  | 'seller_address'
  /** BT-44, BT-48 */
  | 'buyer_name'
  | 'buyer_vat_id'
  | 'buyer_address'
  /** BT-10, BT-13 */
  | 'buyer_reference'
  | 'order_reference'
  /** BT-106, BT-109, BT-110, BT-112, BT-113, BT-115 */
  | 'line_total'
  | 'net_amount'
  | 'tax_amount'
  | 'total_amount'
  | 'prepaid_amount'
  | 'amount_due'
  /** BT-84, BT-86 */
  | 'iban'
  | 'bic'
  /** BT-20 */
  | 'payment_terms';

export type LineConcept =
  /** BT-153 (item name), else BT-154 (description) */
  | 'description'
  /** BT-155 */
  | 'item_id'
  /** BT-129, BT-130 */
  | 'quantity'
  | 'unit'
  /** BT-146 */
  | 'unit_price'
  /** BT-131 */
  | 'amount'
  /** BT-152 */
  | 'tax_rate';

/** Amounts and quantities are numbers, dates ISO `YYYY-MM-DD`, everything else text. */
export type ConceptValue = string | number;

export interface EInvoice {
  /** `CII` (Factur-X, ZUGFeRD 2, XRechnung CII; also ZUGFeRD 1's dialect) or `UBL` (XRechnung UBL, Peppol BIS). */
  syntax: 'CII' | 'UBL';
  /** BT-24, the specification the invoice follows (its guideline URN). */
  profile?: string;
  header: Partial<Record<InvoiceConcept, ConceptValue>>;
  lines: Partial<Record<LineConcept, ConceptValue>>[];
}

/** Amount concepts: the values a `currency` field returns with the invoice's currency. */
export const AMOUNT_CONCEPTS: ReadonlySet<InvoiceConcept | LineConcept> = new Set([
  'line_total',
  'net_amount',
  'tax_amount',
  'total_amount',
  'prepaid_amount',
  'amount_due',
  'unit_price',
  'amount',
]);

/** Date concepts. */
export const DATE_CONCEPTS: ReadonlySet<InvoiceConcept> = new Set(['invoice_date', 'due_date', 'delivery_date']);
