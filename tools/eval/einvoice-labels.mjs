// Label derivation for the e-invoice half of invoices-wide (build-invoices-wide.mjs): the invoice's own embedded
// XML (UN/CEFACT CII as in ZUGFeRD 2 / Factur-X, the ZUGFeRD 1.0 CII dialect, or OASIS UBL as in XRechnung) is
// mapped to the shared invoice schema, then every value is kept only where it is printed on the page.
// Rules follow ../shared/corpus/zugferd-facturx/PROVENANCE.md ("Corpus derivation"). Plain Node ESM.
import { XMLParser } from 'fast-xml-parser';

/** Profiles whose XML carries no line items although the page lists them: header fields only. */
const HEADER_ONLY_PROFILE = /minimum|basicwl|basic-wl|basic_wl/i;
/** Lines of page text around a line item's description in which its other cells are looked for. */
const LINE_WINDOW = 2;
/** Credit-note type codes: amounts are positive in the XML and may be printed negative. */
const CREDIT_NOTE_TYPES = new Set(['381', '261', '396']);

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  trimValues: true,
});
const arr = (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const text = (v) => (v === undefined || v === null ? undefined : typeof v === 'object' ? (v['#text'] ?? undefined) : String(v));
/** The first value at a slash path of local element names (arrays: first element). */
function at(node, p) {
  let cur = node;
  for (const k of p.split('/')) {
    cur = arr(cur)[0]?.[k];
    if (cur === undefined) return undefined;
  }
  return cur;
}
const str = (node, p) => {
  const t = text(arr(at(node, p))[0]);
  return t === undefined || t.trim() === '' ? undefined : t.trim();
};
const ymd = (s) =>
  s && /^\d{8}$/.test(s)
    ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`
    : s && /^\d{4}-\d{2}-\d{2}/.test(s)
      ? s.slice(0, 10)
      : undefined;
const num = (s) => (s === undefined || s === '' || Number.isNaN(Number(s)) ? undefined : Number(s));

/** CII paths for ZUGFeRD 2 / Factur-X (v2) and ZUGFeRD 1.0 (v1). */
const CII = {
  v2: {
    ctx: 'ExchangedDocumentContext',
    doc: 'ExchangedDocument',
    tx: 'SupplyChainTradeTransaction',
    agr: 'ApplicableHeaderTradeAgreement',
    set: 'ApplicableHeaderTradeSettlement',
    sum: 'SpecifiedTradeSettlementHeaderMonetarySummation',
    lineAgr: 'SpecifiedLineTradeAgreement',
    lineDel: 'SpecifiedLineTradeDelivery',
    lineSet: 'SpecifiedLineTradeSettlement',
    lineSum: 'SpecifiedTradeSettlementLineMonetarySummation',
  },
  v1: {
    ctx: 'SpecifiedExchangedDocumentContext',
    doc: 'HeaderExchangedDocument',
    tx: 'SpecifiedSupplyChainTradeTransaction',
    agr: 'ApplicableSupplyChainTradeAgreement',
    set: 'ApplicableSupplyChainTradeSettlement',
    sum: 'SpecifiedTradeSettlementMonetarySummation',
    lineAgr: 'SpecifiedSupplyChainTradeAgreement',
    lineDel: 'SpecifiedSupplyChainTradeDelivery',
    lineSet: 'SpecifiedSupplyChainTradeSettlement',
    lineSum: 'SpecifiedTradeSettlementMonetarySummation',
  },
};

function vatIdOf(party) {
  const regs = arr(party?.SpecifiedTaxRegistration)
    .map((r) => r?.ID)
    .filter(Boolean);
  const va = regs.find((id) => typeof id === 'object' && id['@schemeID'] === 'VA');
  return text(va);
}
function taxTotalOf(sum, currency) {
  const all = arr(sum?.TaxTotalAmount);
  const own = all.find((t) => typeof t === 'object' && t['@currencyID'] === currency) ?? all[0];
  return num(text(own));
}
function ciiLines(tx, P) {
  return arr(tx?.IncludedSupplyChainTradeLineItem).map((li) => ({
    description: str(li, 'SpecifiedTradeProduct/Name'),
    quantity: num(str(li, `${P.lineDel}/BilledQuantity`)),
    unit_price: num(str(li, `${P.lineAgr}/NetPriceProductTradePrice/ChargeAmount`)),
    amount: num(str(li, `${P.lineSet}/${P.lineSum}/LineTotalAmount`)),
  }));
}
function fromCii(root, version) {
  const P = CII[version];
  const tx = at(root, P.tx),
    agr = at(tx, P.agr),
    set = at(tx, P.set),
    sum = at(set, P.sum);
  const currency = str(set, 'InvoiceCurrencyCode');
  return {
    syntax: version === 'v2' ? 'CII (ZUGFeRD 2 / Factur-X)' : 'CII (ZUGFeRD 1.0)',
    profile: str(root, `${P.ctx}/GuidelineSpecifiedDocumentContextParameter/ID`) ?? '',
    type_code: str(root, `${P.doc}/TypeCode`) ?? '',
    header: {
      invoice_number: str(root, `${P.doc}/ID`),
      invoice_date: ymd(str(root, `${P.doc}/IssueDateTime/DateTimeString`)),
      due_date: ymd(str(set, 'SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString')),
      seller_name: str(agr, 'SellerTradeParty/Name'),
      buyer_name: str(agr, 'BuyerTradeParty/Name'),
      currency,
      total_amount: num(str(sum, 'GrandTotalAmount')),
      net_amount: num(str(sum, 'TaxBasisTotalAmount')),
      tax_amount: taxTotalOf(sum, currency),
      vat_id: vatIdOf(at(agr, 'SellerTradeParty')),
      iban: str(set, 'SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/IBANID')?.replace(/\s+/g, ''),
    },
    lines: ciiLines(tx, P),
  };
}
function fromUbl(root, kind) {
  const sup = at(root, 'AccountingSupplierParty/Party'),
    cus = at(root, 'AccountingCustomerParty/Party');
  const partyName = (p) => str(p, 'PartyLegalEntity/RegistrationName') ?? str(p, 'PartyName/Name');
  const vat = arr(sup?.PartyTaxScheme).find((t) => /vat/i.test(str(t, 'TaxScheme/ID') ?? ''));
  const lineTag = kind === 'CreditNote' ? 'CreditNoteLine' : 'InvoiceLine';
  const currency = str(root, 'DocumentCurrencyCode');
  const tax = arr(root.TaxTotal)
    .map((t) => t?.TaxAmount)
    .find((a) => typeof a !== 'object' || a['@currencyID'] === currency);
  return {
    syntax: 'UBL 2.1',
    profile: str(root, 'CustomizationID') ?? '',
    type_code: str(root, kind === 'CreditNote' ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? '',
    header: {
      invoice_number: str(root, 'ID'),
      invoice_date: ymd(str(root, 'IssueDate')),
      due_date: ymd(str(root, 'DueDate') ?? str(root, 'PaymentMeans/PaymentDueDate')),
      seller_name: partyName(sup),
      buyer_name: partyName(cus),
      currency,
      total_amount: num(str(root, 'LegalMonetaryTotal/TaxInclusiveAmount')),
      net_amount: num(str(root, 'LegalMonetaryTotal/TaxExclusiveAmount')),
      tax_amount: num(text(tax)),
      vat_id: vat ? str(vat, 'CompanyID') : undefined,
      iban: str(root, 'PaymentMeans/PayeeFinancialAccount/ID')?.replace(/\s+/g, ''),
    },
    lines: arr(root[lineTag]).map((l) => ({
      description: str(l, 'Item/Name'),
      quantity: num(str(l, kind === 'CreditNote' ? 'CreditedQuantity' : 'InvoicedQuantity')),
      unit_price: num(str(l, 'Price/PriceAmount')),
      amount: num(str(l, 'LineExtensionAmount')),
    })),
  };
}

/** Embedded XML text -> { syntax, profile, type_code, header: {schema key: value}, lines: [...] }, or throws. */
export function parseEinvoiceXml(xml) {
  const doc = parser.parse(xml.replace(/^\uFEFF/, ''));
  if (doc.CrossIndustryInvoice) return fromCii(doc.CrossIndustryInvoice, 'v2');
  if (doc.CrossIndustryDocument) return fromCii(doc.CrossIndustryDocument, 'v1');
  if (doc.Invoice) return fromUbl(doc.Invoice, 'Invoice');
  if (doc.CreditNote) return fromUbl(doc.CreditNote, 'CreditNote');
  throw new Error(
    `not an invoice XML (root ${Object.keys(doc)
      .filter((k) => !k.startsWith('?'))
      .join(', ')})`,
  );
}

// ------------------------------------------------------------------ visibility on the page
/** The scorer's string normalisation (score.mjs), with all whitespace removed. */
export const squash = (s) => String(s).normalize('NFKC').toLowerCase().replace(/ß/g, 'ss').replace(/\s+/g, '');
/** The same with whitespace runs kept as one space: numbers in neighbouring layout columns stay apart. */
const spaced = (s) => String(s).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `needle` occurs in `hay` (both squashed) and is not glued to further digits on either side. */
function printedNumber(hay, needle) {
  return new RegExp(`(?<![0-9])(?<![0-9][.,'])${esc(needle)}(?![0-9])(?![.,][0-9])`).test(hay);
}
function groupThousands(int, sep) {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}
/** Print forms of a number: 2 decimals and the XML's own decimals, with , or . as decimal mark, grouped or not. */
export function numberForms(v) {
  const abs = Math.abs(v),
    forms = new Set();
  const decs = new Set([2]);
  if (Number.isInteger(abs)) decs.add(0);
  const own = String(abs).split('.')[1];
  if (own && own.length > 2) decs.add(own.length);
  if (own && own.length === 1) decs.add(1);
  for (const d of decs) {
    const [i, f] = abs.toFixed(d).split('.');
    for (const [g, m] of [
      ['', ','],
      ['', '.'],
      ['.', ','],
      [',', '.'],
      ["'", '.'],
      [' ', ','],
      [' ', '.'],
    ])
      forms.add(groupThousands(i, g) + (f ? m + f : ''));
  }
  return [...forms];
}
/** 'yes' | 'negative' | 'no': whether an amount is printed, and whether only with a minus sign. */
function amountPrinted(hay, v) {
  const forms = numberForms(v);
  if (!forms.some((f) => printedNumber(hay, f))) return 'no';
  return forms.some((f) => new RegExp(`-${esc(f)}(?![0-9])|\\(${esc(f)}\\)`).test(hay)) ? 'negative' : 'yes';
}
const MONTHS = {
  en: ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'],
  de: ['januar', 'februar', 'märz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
};
/** Print forms of an ISO date: numeric day-first, month-first and ISO, two-digit years, month names (en/de/fr). */
export function dateForms(iso) {
  const [y, m, d] = iso.split('-'),
    yy = y.slice(2),
    dn = String(+d),
    mn = String(+m),
    out = new Set([iso]);
  for (const [a, b] of [
    [d, m],
    [dn, mn],
    [m, d],
    [mn, dn],
  ])
    for (const sep of ['.', '/', '-']) {
      out.add(a + sep + b + sep + y);
      out.add(a + sep + b + sep + yy);
    }
  for (const names of Object.values(MONTHS)) {
    const name = names[+m - 1];
    for (const n of [name, name.slice(0, 3)]) {
      out.add(`${dn}.${n}${y}`);
      out.add(`${dn}${n}${y}`);
      out.add(`${d}.${n}${y}`);
      out.add(`${n}${dn},${y}`);
      out.add(`${n}${d},${y}`);
      out.add(`${d}${n}${y}`);
    }
  }
  return [...out].map(squash);
}
const CURRENCY_SIGNS = { EUR: ['€'], GBP: ['£'], USD: ['$', 'us$'], CHF: ['chf', 'sfr'], JPY: ['¥'] };

/** Keep the printed part of a multi-line XML name: the whole text, else its printed lines joined with spaces. */
function printedName(hay, name) {
  if (hay.includes(squash(name))) return name.replace(/\s+/g, ' ').trim();
  const parts = name
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s && hay.includes(squash(s)));
  return parts.length ? parts.join(' ') : undefined;
}

/** Checks one header value against the page; returns the value to expect (maybe sign-corrected) or undefined. */
function headerValue(key, v, page, pageSp, credit) {
  if (v === undefined) return { keep: undefined };
  if (key === 'seller_name' || key === 'buyer_name') {
    const n = printedName(page, v);
    return n ? { keep: n, changed: n !== v.replace(/\s+/g, ' ').trim() } : { why: 'not printed' };
  }
  if (key === 'invoice_date' || key === 'due_date')
    return dateForms(v).some((f) => page.includes(f)) ? { keep: v } : { why: 'date not printed in a known form' };
  if (key === 'currency')
    return page.includes(squash(v)) || (CURRENCY_SIGNS[v] ?? []).some((s) => page.includes(s))
      ? { keep: v }
      : { why: 'neither code nor sign printed' };
  if (typeof v === 'number') {
    const p = amountPrinted(pageSp, v);
    if (p === 'no') return { why: 'amount not printed' };
    return p === 'negative' && credit && v > 0 ? { keep: -v, sign: true } : { keep: v };
  }
  return page.includes(squash(v)) ? { keep: v } : { why: 'not printed' };
}

/** Finds the page line where a description starts; returns the squashed window of ±LINE_WINDOW lines, or null. */
function lineWindow(lines, desc) {
  const first = squash(desc.split(/\r?\n/)[0]).slice(0, 40);
  if (!first) return null;
  const i = lines.findIndex((l, k) => squash(lines.slice(k, k + 3).join('')).startsWith(first) || squash(l).includes(first));
  if (i < 0) return null;
  const win = lines.slice(Math.max(0, i - LINE_WINDOW), i + LINE_WINDOW + 1 + desc.split(/\r?\n/).length).join('\n');
  return { sq: squash(win), sp: spaced(win) };
}
function lineItems(lines, xmlLines, credit, out) {
  const rows = [];
  for (const l of xmlLines) {
    if (!l.description) {
      out.drops.push(['line_items', 'row dropped', 'XML line without a name']);
      continue;
    }
    const win = lineWindow(lines, l.description);
    if (!win) {
      out.drops.push(['line_items', 'row dropped', 'description not printed']);
      continue;
    }
    const desc = printedName(win.sq, l.description) ?? l.description.split(/\r?\n/)[0].trim();
    const row = { description: desc },
      idx = rows.length;
    for (const col of ['quantity', 'unit_price', 'amount']) {
      if (l[col] === undefined) continue;
      const p = amountPrinted(win.sp, l[col]);
      if (p === 'no') {
        out.unlabelled.push(`line_items[${idx}].${col}`);
        continue;
      }
      row[col] = p === 'negative' && credit && l[col] > 0 ? -l[col] : l[col];
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Parsed XML + page text (pdftotext -layout) -> { expected, unlabelled: [keys], drops: [[key, action, why]] }.
 * A value not printed on the page is dropped and listed as unlabelled (the page may show it in another form).
 */
export function deriveExpected(inv, pageText) {
  const page = squash(pageText),
    pageSp = spaced(pageText),
    lines = pageText.split('\n');
  const credit = CREDIT_NOTE_TYPES.has(inv.type_code);
  const out = { expected: {}, unlabelled: [], drops: [] };
  for (const [key, v] of Object.entries(inv.header)) {
    const r = headerValue(key, v, page, pageSp, credit);
    if (r.keep !== undefined) {
      out.expected[key] = r.keep;
      if (r.sign) out.drops.push([key, 'sign', 'positive in the XML, printed negative']);
      if (r.changed) out.drops.push([key, 'trimmed', 'XML name lines not printed were left out']);
    } else if (r.why) {
      out.unlabelled.push(key);
      out.drops.push([key, 'dropped', r.why]);
    }
  }
  if (HEADER_ONLY_PROFILE.test(inv.profile) || !inv.lines.length) {
    out.unlabelled.push('line_items');
    out.drops.push(['line_items', 'unlabelled', inv.lines.length ? 'header-only profile' : 'the XML carries no line items']);
  } else {
    const rows = lineItems(lines, inv.lines, credit, out);
    if (rows.length) out.expected.line_items = rows;
    else out.unlabelled.push('line_items');
  }
  return out;
}

const LANGUAGE_WORDS = {
  de: [
    'rechnung',
    'rechnungsnummer',
    'datum',
    'menge',
    'betrag',
    'gesamt',
    'summe',
    'steuer',
    'mwst',
    'zahlbar',
    'bankverbindung',
    'netto',
    'brutto',
    'einzelpreis',
    'lieferdatum',
  ],
  fr: [
    'facture',
    'montant',
    'quantité',
    'échéance',
    'prix',
    'règlement',
    'total',
    'tva',
    'date',
    'désignation',
    'avoir',
    'unitaire',
    'paiement',
  ],
  en: ['invoice', 'amount', 'quantity', 'price', 'due', 'tax', 'payment', 'description', 'total', 'date', 'bill', 'vat', 'unit'],
};
/** The page's language from its label vocabulary (de/fr/en): the language with the most distinct words present. */
export function pageLanguage(pageText) {
  const words = new Set(
    pageText
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}]+/u),
  );
  const score = Object.entries(LANGUAGE_WORDS).map(([lang, ws]) => [lang, ws.filter((w) => words.has(w)).length]);
  score.sort((a, b) => b[1] - a[1]);
  return score[0][1] ? score[0][0] : 'unknown';
}
