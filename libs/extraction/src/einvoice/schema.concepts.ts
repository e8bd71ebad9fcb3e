import type { DataType, FieldDef } from '../engine.types.js';
import { conceptTokens, weightOf } from '../locate/label.matcher.js';
import type { InvoiceConcept, LineConcept } from './einvoice.types.js';

/**
 * Which e-invoice concept a schema field asks for, from its key and label as the label matcher reduces them
 * (`Rechnungsnummer`, `Invoice No.` and `invoice_number` are all `invoice number`). Each concept lists the concept-word
 * sets that name it; a field names a concept when one set's words are all among the field's words and make up more than
 * half of their weight (generic words such as `name` or `invoice` weigh less: "Invoice total" is the total, "Seller
 * city" is not the seller's name). The field's data type must suit the concept (an amount for a number or currency
 * field, …).
 */
interface Rule<C extends string> {
  concept: C;
  names: string[][];
  types: readonly DataType[];
}

const AMOUNT: readonly DataType[] = ['number', 'currency'];
const TEXT: readonly DataType[] = ['string'];
const DATE: readonly DataType[] = ['date'];

const HEADER_RULES: Rule<InvoiceConcept>[] = [
  { concept: 'invoice_number', names: [['invoice', 'number'], ['invoice', 'id'], ['invoice'], ['document', 'number']], types: TEXT },
  { concept: 'due_date', names: [['due', 'date'], ['due'], ['payment', 'date']], types: DATE },
  { concept: 'delivery_date', names: [['delivery', 'date'], ['delivery']], types: DATE },
  { concept: 'invoice_date', names: [['invoice', 'date'], ['issue', 'date'], ['date']], types: DATE },
  { concept: 'currency', names: [['currency']], types: TEXT },
  {
    concept: 'seller_vat_id',
    names: [
      ['seller', 'tax', 'id'],
      ['tax', 'id'],
      ['vat', 'id'],
      ['seller', 'vat'],
    ],
    types: TEXT,
  },
  {
    concept: 'buyer_vat_id',
    names: [
      ['buyer', 'tax', 'id'],
      ['customer', 'tax', 'id'],
      ['buyer', 'vat'],
    ],
    types: TEXT,
  },
  {
    concept: 'seller_tax_number',
    names: [
      ['seller', 'tax', 'number'],
      ['tax', 'number'],
    ],
    types: TEXT,
  },
  { concept: 'seller_address', names: [['seller', 'address']], types: TEXT },
  {
    concept: 'buyer_address',
    names: [
      ['buyer', 'address'],
      ['customer', 'address'],
    ],
    types: TEXT,
  },
  { concept: 'seller_email', names: [['seller', 'email'], ['email']], types: TEXT },
  { concept: 'seller_name', names: [['seller', 'name'], ['seller'], ['company', 'name'], ['issuer']], types: TEXT },
  { concept: 'buyer_name', names: [['buyer', 'name'], ['buyer'], ['customer', 'name'], ['customer']], types: TEXT },
  { concept: 'order_reference', names: [['order', 'number'], ['order', 'reference'], ['order', 'id'], ['order']], types: TEXT },
  {
    concept: 'buyer_reference',
    names: [
      ['buyer', 'reference'],
      ['customer', 'reference'],
    ],
    types: TEXT,
  },
  { concept: 'amount_due', names: [['amount', 'due'], ['due'], ['balance', 'due'], ['balance'], ['payable']], types: AMOUNT },
  { concept: 'prepaid_amount', names: [['prepaid'], ['paid', 'amount'], ['paid'], ['prepayment']], types: AMOUNT },
  { concept: 'tax_amount', names: [['tax', 'amount'], ['tax'], ['tax', 'total']], types: AMOUNT },
  { concept: 'net_amount', names: [['net', 'amount'], ['net'], ['subtotal'], ['net', 'total']], types: AMOUNT },
  {
    concept: 'line_total',
    names: [
      ['line', 'total'],
      ['line', 'amount'],
    ],
    types: AMOUNT,
  },
  { concept: 'total_amount', names: [['total', 'amount'], ['total'], ['grand', 'total'], ['gross']], types: AMOUNT },
  { concept: 'iban', names: [['iban']], types: TEXT },
  { concept: 'bic', names: [['bic'], ['swift']], types: TEXT },
  { concept: 'payment_terms', names: [['payment', 'terms'], ['terms']], types: TEXT },
];

const LINE_RULES: Rule<LineConcept>[] = [
  { concept: 'quantity', names: [['quantity']], types: AMOUNT },
  { concept: 'unit_price', names: [['unit', 'price'], ['price'], ['net', 'price']], types: AMOUNT },
  // ("rate" reads as the price concept: "Tax rate" is `tax price`.)
  { concept: 'tax_rate', names: [['tax', 'price'], ['tax']], types: AMOUNT },
  { concept: 'amount', names: [['amount'], ['total'], ['line', 'total'], ['net', 'amount'], ['line', 'amount']], types: AMOUNT },
  {
    concept: 'item_id',
    names: [['item', 'number'], ['item', 'id'], ['sku'], ['product', 'id'], ['article', 'number'], ['code']],
    types: TEXT,
  },
  { concept: 'unit', names: [['unit']], types: TEXT },
  { concept: 'description', names: [['description'], ['item', 'name'], ['item'], ['product'], ['name']], types: TEXT },
];

/** A field's distinct concept words, fillers ("of", "the") left out. */
function wordsOf(text: string): Set<string> {
  return new Set(conceptTokens(text).filter((c) => weightOf(c) > 0));
}

/** Share of a field's words (by weight) that a concept's word set must cover. */
const MIN_NAME_SHARE = 0.6;

const weight = (ws: Iterable<string>) => [...ws].reduce((s, w) => s + weightOf(w), 0);

/** How well `words` name one of the rule's word sets: the set's weighted share of the field's words (0 when one is missing). */
function nameScore(words: Set<string>, names: string[][]): number {
  let best = 0;
  const total = weight(words);
  for (const n of names) if (n.every((w) => words.has(w))) best = Math.max(best, weight(new Set(n)) / total);
  return best;
}

/** The best concept for a field (key and label each tried), or undefined below MIN_NAME_SHARE. */
function bestConcept<C extends string>(f: FieldDef, rules: readonly Rule<C>[]): C | undefined {
  const texts = [f.key.replace(/_/g, ' '), f.label ?? ''].filter((t) => t.trim());
  let best: { concept: C; score: number } | undefined;
  for (const t of texts) {
    const words = wordsOf(t);
    if (!words.size) continue;
    for (const r of rules) {
      if (!r.types.includes(f.data_type)) continue;
      const score = nameScore(words, r.names);
      if (score >= MIN_NAME_SHARE && (!best || score > best.score)) best = { concept: r.concept, score };
    }
  }
  return best?.concept;
}

/** The invoice concept a scalar field asks for. */
export function headerConceptOf(f: FieldDef): InvoiceConcept | undefined {
  return f.data_type === 'table' ? undefined : bestConcept(f, HEADER_RULES);
}

/** A table field of line items: its columns' concepts (a column naming none stays unanswered). */
export function lineColumnsOf(f: FieldDef): Map<string, LineConcept> | undefined {
  if (f.data_type !== 'table' || !f.fields?.length) return undefined;
  const columns = new Map<string, LineConcept>();
  for (const c of f.fields) {
    const concept = bestConcept(c, LINE_RULES);
    if (concept) columns.set(c.key, concept);
  }
  return columns.size ? columns : undefined;
}
