// Sources, reserved families and schema of the e-invoice half of invoices-wide (build-invoices-wide.mjs).
// Each source is a public repository read at the pinned commit; `include` limits the folders whose PDFs are read.

export const SOURCES = {
  corpus: {
    repo: 'ZUGFeRD/corpus',
    commit: '47b61beb29b7de98c3c91cdb3657415c0ede783b',
    licence: 'Apache-2.0',
    lang: 'collection',
    include: ['ZUGFeRDv1/correct/', 'ZUGFeRDv2/correct/'],
  },
  mustang: {
    repo: 'ZUGFeRD/mustangproject',
    commit: '096db40a9806b0b5202028509dff3563efe7fc8c',
    licence: 'Apache-2.0',
    lang: 'Java',
    include: ['library/src/test/resources/', 'validator/src/test/resources/'],
  },
  konik: {
    repo: 'konik-io/konik',
    commit: 'f90a6c4f656cb5507a5776ed3d1b3d881cc0622b',
    licence: 'AGPL-3.0',
    lang: 'Java',
    include: ['src/test/resources/'],
  },
  itext: {
    repo: 'itext/i7js-zugferd',
    commit: 'e60e87b9000752d34f65d1c03ab7a0ead660a81d',
    licence: 'AGPL-3.0 (iText examples)',
    lang: 'Java',
    include: ['cmp/'],
  },
  horstoeko: {
    repo: 'horstoeko/zugferd',
    commit: '50e16a129733b4ddfdacd7f9c16e4b0964736f0d',
    licence: 'MIT',
    lang: 'PHP',
    include: ['tests/assets/', 'examples/'],
  },
  tiime: {
    repo: 'Tiime-Software/Factur-X',
    commit: '5617f878881f04f34a74264f861d37b6c672f3a5',
    licence: 'MIT',
    lang: 'PHP',
    include: ['tests/'],
  },
  akretion: {
    repo: 'akretion/factur-x',
    commit: '5edb9af9186e5f06f446372688e6fdbbd0b790d3',
    licence: 'BSD-style (LICENSE.txt)',
    lang: 'Python',
    include: ['tests/'],
  },
  securibox: {
    repo: 'Securibox/facturx',
    commit: '6246f77a255b3416cd63d3fcc850f22f38b01279',
    licence: 'MIT',
    lang: 'C#',
    include: ['Securibox.FacturX.Tests/Invoices/'],
  },
  tulo: {
    repo: 'TuloSharp/tulo.eInvoiceCreatorZUGFeRD',
    commit: '07ac72d7b4b4e44465b5e76e135632b771e35d4c',
    licence: 'Apache-2.0',
    lang: 'C#',
    include: ['ReadMeAsserts/', 'Tests/'],
  },
  fxkit: {
    repo: 'ahelmberger/factur-x-kit',
    commit: 'f610e4c8dcfbb71a984405ee7bffc82611f32521',
    licence: 'MIT',
    lang: 'JS/TS',
    include: ['test/'],
  },
  quba: {
    repo: 'ZUGFeRD/quba-viewer',
    commit: 'c2eb3b01cd89a697452815822cc3fe6bffa7a1c8',
    licence: 'Apache-2.0',
    lang: 'JS (Electron)',
    include: ['000resources/'],
  },
};

/**
 * Kept for independent checking (issue 19) and never read: the official FeRD/AWV example family wherever it is
 * re-published or renamed, the intarsys / 4s4u / symtrax folders, and Invoice Ninja's designs. Matched on the
 * path before a file is read, and on the PDF's Creator/Producer afterwards.
 */
const RESERVED_NAME =
  /^(ZUGFeRD_1p0_|ZUGFeRD_2p|EN16931_|XRECHNUNG_|Extended_|ZF_|Musterrechnung_|pdf_zf_|attributeBasedXMP_zugferd_|validV1WithAdditionalData|MINIMUM_|BASIC_|BASIC-WL_|BASICWL_)|beispielrechnung|invoice.?ninja/i;
const RESERVED_DIR = /(^|\/)[^/]*(intarsys|4s4u|symtrax|beispiel|ninja)[^/]*\/|(^|\/)(documentation|dokumentation)\//i;
const RESERVED_PRODUCER = /intarsys|4s4u|symtrax|invoice.?ninja/i;
/** A repository path that belongs to a reserved family. */
export const isReserved = (p) => RESERVED_NAME.test(p.split('/').pop()) || RESERVED_DIR.test(p) || RESERVED_PRODUCER.test(p);
/** A PDF whose Creator / Producer names a reserved family's tool. */
export const isReservedProducer = (s) => RESERVED_PRODUCER.test(s);
/** Deliberately broken fixtures and non-invoices (orders, blank or encrypted test PDFs). */
const UNWANTED = /(^|\/)fail|invalid|corrupt|order-x|waytoosmall|password|not-embedded|without-basefont|dummy|empty|veraPDF|non_compliant/i;
export const isUnwanted = (p) => UNWANTED.test(p);

const field = (key, label, data_type, description) => ({ key, label, data_type, ...(description ? { description } : {}) });
/** The shared invoice schema of the corpus (zugferd-facturx, invoice2data). */
export const INVOICE_SCHEMA = {
  fields: [
    field('invoice_number', 'Invoice number', 'string', 'The invoice or credit-note number as printed.'),
    field('invoice_date', 'Invoice date', 'date', 'Date the invoice was issued.'),
    field('due_date', 'Due date', 'date', 'Payment due date, if one is printed.'),
    field('seller_name', 'Seller name', 'string', 'Name of the company or person issuing the invoice.'),
    field('buyer_name', 'Buyer name', 'string', 'Name of the customer the invoice is addressed to.'),
    field('currency', 'Currency', 'string', 'ISO 4217 code of the invoice currency, e.g. EUR or USD.'),
    field(
      'total_amount',
      'Total',
      'number',
      'Grand total including tax, before any prepayment is deducted. Negative if printed negative (credit notes).',
    ),
    field('net_amount', 'Net amount', 'number', 'Total before tax.'),
    field('tax_amount', 'Tax amount', 'number', 'Total VAT / sales tax.'),
    field('vat_id', 'Seller VAT ID', 'string', "The seller's VAT identification number."),
    field('iban', 'IBAN', 'string', 'IBAN of the account the seller wants to be paid into.'),
    {
      ...field('line_items', 'Line items', 'table', 'One row per invoiced item.'),
      fields: [
        field('description', 'Description', 'string'),
        field('quantity', 'Quantity', 'number'),
        field('unit_price', 'Unit price', 'number', 'Price per unit as printed on the line.'),
        field('amount', 'Amount', 'number', 'Line total as printed.'),
      ],
    },
  ],
};
