import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { block, invoiceSchema, L, pdfOf, R, row, type Item } from '../testing/invoice-layout.test-helper.js';

// The label words small businesses print for the parties, the summary amounts and the due date, one invoice per
// wording (every name and number invented): each variant sits in the same simple layout, so a failure is the
// vocabulary or the label logic, not the layout. Party names carry no legal form, so only the label says who is who.

const engine = createExtractionEngine();
afterAll(() => engine.close());

const de = (n: number) => n.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const en = (n: number) => n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface Lang {
  net: string[];
  tax: string[];
  total: string[];
  due: string[];
  seller: string[];
  buyer: string[];
  /** Title, number label, date label, column headers. */
  title: string;
  numberLabel: string;
  dateLabel: string;
  head: [string, string, string, string];
  dates: [string, string];
  fmt: (n: number) => string;
  rate: number;
}

const langs: Record<string, Lang> = {
  de: {
    net: [
      'Summe netto',
      'Nettosumme',
      'Netto-Betrag',
      'Warenwert',
      'Gesamt netto',
      'Rechnungsbetrag netto',
      'Zwischensumme (netto)',
      'Betrag netto',
      'Nettobetrag',
      'Summe ohne MwSt.',
    ],
    tax: [
      'MwSt. 19 %',
      '19 % MwSt.',
      'USt. 19%',
      'zzgl. 19% MwSt.',
      'Umsatzsteuer 19 %',
      '19 % Umsatzsteuer',
      'MwSt.-Betrag',
      'Mehrwertsteuer (19 %)',
      'zzgl. Umsatzsteuer 19 %',
    ],
    total: [
      'Gesamtbetrag',
      'Rechnungsbetrag',
      'Endbetrag',
      'Gesamtsumme',
      'Summe brutto',
      'Bruttobetrag',
      'Zahlbetrag',
      'Rechnungssumme',
      'Gesamt (brutto)',
      'Zu zahlen',
      'Gesamtbetrag brutto',
    ],
    due: [
      'Fällig am:',
      'Fälligkeitsdatum:',
      'Zahlbar bis:',
      'Zahlungsfrist:',
      'Zahlungsziel:',
      'Fällig bis:',
      'Zahlungstermin:',
      'Fälligkeit:',
      'Zahlbar bis spätestens:',
    ],
    seller: [
      'Rechnungsersteller',
      'Rechnungssteller',
      'Lieferant',
      'Verkäufer',
      'Absender',
      'Auftragnehmer',
      'Leistungserbringer',
      'Anbieter',
    ],
    buyer: ['Rechnungsempfänger', 'Kunde', 'Empfänger', 'Auftraggeber', 'Rechnungsadresse', 'Käufer', 'Leistungsempfänger'],
    title: 'Rechnung',
    numberLabel: 'Rechnungsnummer:',
    dateLabel: 'Rechnungsdatum:',
    head: ['Beschreibung', 'Menge', 'Einzelpreis', 'Gesamt'],
    dates: ['12.03.2024', '26.03.2024'],
    fmt: de,
    rate: 0.19,
  },
  fr: {
    net: ['Total HT', 'Montant HT', 'Sous-total HT', 'Total hors taxes', 'Base HT', 'Montant hors taxes', 'Total H.T.'],
    tax: ['TVA 20 %', 'TVA (20%)', 'Montant TVA', 'Total TVA', 'TVA à 20 %', 'T.V.A. 20 %'],
    total: ['Total TTC', 'Montant TTC', 'Net à payer', 'Total à payer', 'Montant total TTC', 'Total T.T.C.', 'Montant à régler'],
    due: [
      "Date d'échéance :",
      'Échéance :',
      'À payer avant le :',
      'Date limite de paiement :',
      'Payable le :',
      'Date limite de règlement :',
    ],
    seller: ['Fournisseur', 'Vendeur', 'Émetteur', 'Prestataire', 'Expéditeur'],
    buyer: ['Client', 'Acheteur', 'Destinataire', 'Facturé à', 'Adresse de facturation'],
    title: 'Facture',
    numberLabel: 'Facture n° :',
    dateLabel: 'Date :',
    head: ['Désignation', 'Qté', 'Prix unitaire', 'Montant'],
    dates: ['12/03/2024', '26/03/2024'],
    fmt: de,
    rate: 0.2,
  },
  nl: {
    net: ['Subtotaal', 'Totaal excl. btw', 'Bedrag excl. BTW', 'Netto bedrag', 'Totaal exclusief btw'],
    tax: ['Btw 21%', 'BTW (21%)', '21% btw', 'Btw-bedrag', 'Btw hoog 21%'],
    total: ['Totaal', 'Totaal incl. btw', 'Te betalen', 'Totaalbedrag', 'Totaal inclusief btw', 'Factuurbedrag'],
    due: ['Vervaldatum:', 'Uiterste betaaldatum:', 'Te betalen voor:', 'Betalen vóór:'],
    seller: ['Leverancier', 'Verkoper', 'Afzender', 'Opdrachtnemer'],
    buyer: ['Klant', 'Koper', 'Factuur aan', 'Afnemer', 'Opdrachtgever', 'Factuuradres'],
    title: 'Factuur',
    numberLabel: 'Factuurnummer:',
    dateLabel: 'Factuurdatum:',
    head: ['Omschrijving', 'Aantal', 'Prijs', 'Bedrag'],
    dates: ['12-03-2024', '26-03-2024'],
    fmt: de,
    rate: 0.21,
  },
  en: {
    net: ['Subtotal', 'Net total', 'Total net', 'Amount before tax', 'Total excl. VAT', 'Net amount'],
    tax: ['VAT 20%', 'Tax', 'VAT amount', 'Sales tax', 'VAT @ 20%', 'Total VAT'],
    total: ['Total', 'Grand total', 'Amount due', 'Balance due', 'Total due', 'Invoice total', 'Total amount'],
    due: ['Due date:', 'Payment due:', 'Due by:', 'Pay by:', 'Payment due date:', 'Due:'],
    seller: ['Sold by', 'From', 'Supplier', 'Seller', 'Vendor', 'Issued by'],
    buyer: ['Bill to', 'Billed to', 'Customer', 'Buyer', 'Invoice to', 'Sold to'],
    title: 'Invoice',
    numberLabel: 'Invoice no.:',
    dateLabel: 'Invoice date:',
    head: ['Description', 'Qty', 'Unit price', 'Amount'],
    dates: ['12/03/2024', '26/03/2024'],
    fmt: en,
    rate: 0.2,
  },
};

const NET = 250;
const SELLER = 'Schmidt Elektrotechnik';
const BUYER = 'Praxis Sommer';

interface Variant {
  lang: string;
  net: string;
  tax: string;
  total: string;
  due: string;
  seller: string;
  buyer: string;
  /** Party blocks: seller right, buyer left. */
  swap?: boolean;
  /** Party labels inline ("Kunde: Praxis Sommer") rather than as headings over the block. */
  inline?: boolean;
}

function pagesOf(v: Variant): Item[][] {
  const g = langs[v.lang]!;
  const tax = Math.round(NET * g.rate * 100) / 100;
  const [sx, bx] = v.swap ? [300, 40] : [40, 300];
  const party = (x: number, label: string, lines: string[]) =>
    v.inline
      ? [...row(100, [x, `${label}:`], [x + 115, lines[0]!]), ...block(x + 115, 112, lines.slice(1))]
      : [L(x, 100, label, 8, true), ...block(x, 112, lines)];
  return [
    [
      L(40, 40, g.title, 16, true),
      ...party(sx, v.seller, [SELLER, 'Am Anger 5', '99084 Erfurt']),
      ...party(bx, v.buyer, [BUYER, 'Lindenweg 3', '99085 Erfurt']),
      ...row(192, [40, g.numberLabel], [170, 'A-1001']),
      ...row(204, [40, g.dateLabel], [170, g.dates[0]]),
      ...row(216, [40, v.due], [170, g.dates[1]]),
      ...row(250, [40, g.head[0]], [340, g.head[1], 'r'], [440, g.head[2], 'r'], [545, g.head[3], 'r']),
      ...row(266, [40, 'Widget A'], [340, '2', 'r'], [440, g.fmt(100), 'r'], [545, g.fmt(200), 'r']),
      ...row(280, [40, 'Widget B'], [340, '1', 'r'], [440, g.fmt(50), 'r'], [545, g.fmt(50), 'r']),
      ...row(316, [360, v.net], [545, g.fmt(NET), 'r']),
      ...row(328, [360, v.tax], [545, g.fmt(tax), 'r']),
      L(360, 342, v.total, 9, true),
      R(545, 342, g.fmt(NET + tax), 9, true),
    ],
  ];
}

// Each wording once, the other labels at their first (plain) wording; party labels in four placements.
const variants: [string, Variant][] = Object.entries(langs).flatMap(([lang, g]) => {
  const base = { lang, net: g.net[0]!, tax: g.tax[0]!, total: g.total[0]!, due: g.due[0]!, seller: g.seller[0]!, buyer: g.buyer[0]! };
  const out: [string, Variant][] = [];
  for (const k of ['net', 'tax', 'total', 'due'] as const) for (const w of g[k]) out.push([`${lang} ${k}: "${w}"`, { ...base, [k]: w }]);
  for (const k of ['seller', 'buyer'] as const)
    for (const w of g[k])
      for (const swap of [false, true])
        for (const inline of [false, true])
          out.push([`${lang} ${k}: "${w}"${swap ? ', seller right' : ''}${inline ? ', inline' : ''}`, { ...base, [k]: w, swap, inline }]);
  return out;
});

describe('label wordings of parties, summary amounts and due dates', () => {
  it.each(variants)('%s', async (_name, v) => {
    const g = langs[v.lang]!;
    const tax = Math.round(NET * g.rate * 100) / 100;
    const out = await engine.extract(
      { bytes: await pdfOf(pagesOf(v)), mimeType: 'application/pdf', filename: 'invoice.pdf' },
      invoiceSchema,
    );
    const r = out.result as Record<string, unknown>;
    expect({
      seller: r.seller_name,
      buyer: r.buyer_name,
      net: r.net_amount,
      tax: r.tax_amount,
      total: r.total_amount,
      due: r.due_date,
    }).toEqual({
      seller: SELLER,
      buyer: BUYER,
      net: NET,
      tax,
      total: Math.round((NET + tax) * 100) / 100,
      due: '2024-03-26',
    });
  });
});

describe('a tax label that names its rate before the word ending in a colon', () => {
  it('reads the amount after the colon, with no net amount printed', async () => {
    const pages: Item[][] = [
      [
        L(40, 40, 'Invoice', 16, true),
        ...block(40, 100, [SELLER, 'Am Anger 5', '99084 Erfurt']),
        ...row(192, [40, 'Invoice no.:'], [170, 'A-1001']),
        ...row(250, [40, 'Description'], [340, 'Qty', 'r'], [440, 'Unit price', 'r'], [545, 'Amount', 'r']),
        ...row(266, [40, 'Widget A'], [340, '2', 'r'], [440, en(100), 'r'], [545, en(200), 'r']),
        ...row(280, [40, 'Widget B'], [340, '1', 'r'], [440, en(50), 'r'], [545, en(50), 'r']),
        ...row(316, [360, 'VAT 20% Tax:'], [545, en(50), 'r']),
        L(360, 330, 'Total:', 9, true),
        R(545, 330, en(300), 9, true),
      ],
    ];
    const out = await engine.extract({ bytes: await pdfOf(pages), mimeType: 'application/pdf', filename: 'invoice.pdf' }, invoiceSchema);
    expect(out.result).toMatchObject({ tax_amount: 50, total_amount: 300 });
  });
});
