#!/usr/bin/env node
// A generalisation check for born-digital invoices: writes a dataset of INVENTED invoices (German, French, English,
// Dutch), laid out like a corpus dataset (docs/, expected/, schema.json, manifest.json), for `npm run eval -- --corpus`.
// Every name, address, number and label variant comes from the small invented lists below, combined by a seeded
// random generator, so the same seed gives the same documents. Layouts vary the way small businesses' invoices do:
// letterhead left or right, a sender line over the address window, metadata as "label: value" rows or as a row of
// headings over their values, role-labelled party blocks, item codes (GTIN/EAN/SKU) and continuation lines under
// item descriptions, shipping in the totals, a copyright year and a registry line in the footer.
//   node tools/eval/synth-invoices.mjs --out /tmp/synth-invoices [--count 120] [--seed 7]
//   npm run eval -- --corpus /tmp/synth-invoices
// The expected values are what a reader of the page writes down (the schema of ../shared/corpus/invoice2data).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliOptions, datasetWriter, pdfOfRuns, randomSource } from './synth.common.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { out, count, seed } = cliOptions({ out: '/tmp/synth-invoices', count: 120, seed: 7 });

// Invented words: syllables joined; those that happen to mean something on an invoice ("ven" + "dor") are drawn again.
const SYLLABLES = [
  'ka',
  'lor',
  'ven',
  'mi',
  'dor',
  'sel',
  'tra',
  'bo',
  'nix',
  'ra',
  'fen',
  'gul',
  'wes',
  'tan',
  'ber',
  'lin',
  'mar',
  'ost',
  'quen',
  'zel',
  'ha',
  'rup',
  'vi',
  'den',
];
const MEANINGFUL = /^(vendor|radar|boden|tandem|mira|lorra)$/i;
const { pick, chance, int, digits, letters, word } = randomSource(seed, SYLLABLES, MEANINGFUL);

const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const LANG = {
  de: {
    trades: ['Haustechnik', 'Druckerei', 'Metallbau', 'Software', 'Elektro', 'Gartenbau', 'Bürobedarf'],
    legal: ['GmbH', 'AG', 'UG (haftungsbeschränkt)', 'GmbH & Co. KG', 'e.K.'],
    street: ['straße', 'weg', 'allee', 'ring'],
    title: ['Rechnung', 'RECHNUNG'],
    number: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.', 'Belegnummer'],
    date: ['Rechnungsdatum', 'Datum', 'Belegdatum'],
    due: ['Fällig am', 'Zahlbar bis', 'Fälligkeitsdatum'],
    other: [
      ['Kundennummer', () => digits(6)],
      ['Bestellnummer', () => digits(8)],
      ['Lieferdatum', null],
    ],
    net: ['Nettobetrag', 'Summe netto', 'Zwischensumme netto'],
    tax: (r) => pick([`MwSt. ${r} %`, `USt. ${r} %`, `zzgl. ${r} % MwSt.`]),
    total: ['Gesamtbetrag', 'Rechnungsbetrag', 'Gesamtsumme', 'Endbetrag'],
    shipping: 'Versandkosten',
    head: [['Pos.'], ['Beschreibung', 'Artikel', 'Bezeichnung'], ['Menge', 'Anzahl'], ['Einzelpreis', 'E-Preis'], ['Gesamt', 'Betrag']],
    vat: ['USt-IdNr.', 'USt-ID'],
    registry: (c) => `Geschäftsführer: ${word()} ${word()} · Amtsgericht ${c} HRB ${digits(5)}`,
    buyerRole: ['Rechnungsempfänger', 'Kunde'],
    sellerRole: ['Rechnungssteller', 'Verkäufer', 'Lieferant'],
    salutation: ['Herrn', 'Frau'],
    thanks: 'Vielen Dank für Ihren Auftrag.',
    pay: (d) => `Bitte überweisen Sie den Betrag bis zum ${d}.`,
    rates: [19, 7],
    country: 'DE',
    currency: 'EUR',
    money: (n) => `${fmt(n, '.', ',')} €`,
    date2: (d) => `${dd(d.getUTCDate())}.${dd(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`,
    codes: ['GTIN', 'EAN', 'Art.-Nr.'],
    months: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
    long: (d, m) => `${d}. ${m}`,
    units: ['Stk.', 'Std.', 'm'],
    unitHead: 'Einheit',
    attn: ['z. Hd.', 'z. H.'],
    discount: (r) => `Rabatt ${r} %`,
    numberInTitle: 'Rechnung Nr.',
    noVat: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.',
    articleHead: 'Art.-Nr.',
    shipTo: 'Lieferadresse',
    terms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
    phone: () => `Tel. +49 ${int(30, 89)} ${digits(7)}`,
    cont: 'Fortsetzung',
    code: 'EUR',
  },
  fr: {
    trades: ['Boulangerie', 'Conseil', 'Menuiserie', 'Imprimerie', 'Informatique', 'Transports'],
    legal: ['SARL', 'SAS', 'EURL', 'SA'],
    street: ['rue des ', 'avenue ', 'chemin de '],
    title: ['Facture', 'FACTURE'],
    number: ['N° de facture', 'Facture n°', 'Numéro de facture'],
    date: ['Date de facture', "Date d'émission", 'Date'],
    due: ["Date d'échéance", 'Échéance', 'À payer avant le'],
    other: [
      ['N° client', () => `C${digits(5)}`],
      ['Commande', () => digits(7)],
    ],
    net: ['Total HT', 'Montant HT'],
    tax: (r) => pick([`TVA ${r} %`, `TVA (${r} %)`]),
    total: ['Total TTC', 'Montant TTC', 'Net à payer'],
    shipping: 'Frais de port',
    head: [['Réf.'], ['Désignation', 'Description'], ['Qté', 'Quantité'], ['Prix unitaire HT', 'P.U. HT'], ['Montant HT', 'Total HT']],
    vat: ['N° TVA intracommunautaire', 'TVA intracom.'],
    registry: (c) => `RCS ${c} ${digits(3)} ${digits(3)} ${digits(3)} · Capital social ${int(1, 9)}0 000 €`,
    buyerRole: ['Client', 'Facturé à'],
    sellerRole: ['Fournisseur', 'Vendeur', 'Émetteur'],
    salutation: ['M.', 'Mme'],
    thanks: 'Merci pour votre confiance.',
    pay: (d) => `Paiement à réception, au plus tard le ${d}.`,
    rates: [20, 10],
    country: 'FR',
    currency: 'EUR',
    money: (n) => `${fmt(n, '\u00a0', ',')} €`,
    date2: (d) => `${dd(d.getUTCDate())}/${dd(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`,
    codes: ['Réf.', 'EAN'],
    months: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
    long: (d, m) => `${d} ${m}`,
    units: ['u.', 'h', 'forfait'],
    unitHead: 'Unité',
    attn: ["À l'attention de"],
    discount: (r) => `Remise ${r} %`,
    numberInTitle: 'Facture n°',
    noVat: 'TVA non applicable, art. 293 B du CGI.',
    articleHead: 'Réf. article',
    shipTo: 'Adresse de livraison',
    terms: 'Paiement à 30 jours fin de mois.',
    phone: () => `Tél. : 0${int(1, 5)} ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`,
    cont: 'Suite',
    code: 'EUR',
  },
  en: {
    trades: ['Consulting', 'Supplies', 'Print', 'Engineering', 'Logistics', 'Design'],
    legal: ['Ltd', 'Limited', 'LLP', 'PLC'],
    street: [' Road', ' Street', ' Lane'],
    title: ['Invoice', 'INVOICE', 'Tax Invoice'],
    number: ['Invoice No.', 'Invoice Number', 'Invoice #'],
    date: ['Invoice Date', 'Date', 'Date of issue'],
    due: ['Due Date', 'Payment due', 'Due'],
    other: [
      ['Customer ID', () => digits(5)],
      ['PO Number', () => `PO-${digits(5)}`],
    ],
    net: ['Subtotal', 'Net total', 'Total excl. VAT'],
    tax: (r) => pick([`VAT ${r}%`, `VAT @ ${r}%`, 'VAT']),
    total: ['Total', 'Total due', 'Amount due', 'Grand total'],
    shipping: 'Shipping',
    head: [['#', 'Item'], ['Description'], ['Qty', 'Quantity'], ['Unit price', 'Rate'], ['Amount', 'Total']],
    vat: ['VAT No.', 'VAT Reg. No.'],
    registry: (c) => `Registered in England and Wales No. ${digits(8)} · Registered office: ${c}`,
    buyerRole: ['Bill to', 'Invoice to', 'Customer'],
    sellerRole: ['From', 'Sold by'],
    salutation: ['Mr', 'Ms'],
    thanks: 'Thank you for your business.',
    pay: (d) => `Please pay by ${d}.`,
    rates: [20],
    country: 'GB',
    currency: 'GBP',
    money: (n) => `£${fmt(n, ',', '.')}`,
    date2: (d) =>
      pick([
        `${d.getUTCDate()} ${MONTHS_EN[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
        `${MONTHS_EN[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`,
      ]),
    codes: ['SKU', 'Part no.'],
    months: MONTHS_EN,
    long: (d, m) => `${d} ${m}`,
    units: ['pcs', 'hrs', 'each'],
    unitHead: 'Unit',
    attn: ['Attn:', 'FAO'],
    discount: (r) => `Discount ${r}%`,
    numberInTitle: 'Invoice No.',
    noVat: 'No VAT charged: the supplier is not VAT registered.',
    articleHead: 'Item no.',
    shipTo: 'Ship to',
    terms: 'Payment terms: 30 days net.',
    phone: () => `Tel: +44 ${int(20, 29)} ${digits(4)} ${digits(4)}`,
    cont: 'Continued',
    code: 'GBP',
  },
  nl: {
    trades: ['Installatietechniek', 'Bouw', 'Drukwerk', 'Advies', 'Schilders'],
    legal: ['B.V.', 'N.V.', 'V.O.F.'],
    street: ['straat', 'weg', 'laan'],
    title: ['Factuur', 'FACTUUR'],
    number: ['Factuurnummer', 'Factuurnr.'],
    date: ['Factuurdatum', 'Datum'],
    due: ['Vervaldatum', 'Te betalen voor'],
    other: [
      ['Klantnummer', () => digits(5)],
      ['Referentie', () => `R${digits(6)}`],
    ],
    net: ['Subtotaal', 'Totaal excl. btw'],
    tax: (r) => pick([`Btw ${r}%`, `BTW ${r}%`]),
    total: ['Totaal', 'Totaal incl. btw', 'Te betalen'],
    shipping: 'Verzendkosten',
    head: [['Nr.'], ['Omschrijving'], ['Aantal'], ['Prijs', 'Stukprijs'], ['Bedrag', 'Totaal']],
    vat: ['Btw-nummer', 'BTW-nr.'],
    registry: () => `KvK ${digits(8)}`,
    buyerRole: ['Factuuradres', 'Klant'],
    sellerRole: ['Leverancier'],
    salutation: ['Dhr.', 'Mevr.'],
    thanks: 'Bedankt voor uw bestelling.',
    pay: (d) => `Gelieve te betalen voor ${d}.`,
    rates: [21, 9],
    country: 'NL',
    currency: 'EUR',
    money: (n) => `€ ${fmt(n, '.', ',')}`,
    date2: (d) => `${dd(d.getUTCDate())}-${dd(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`,
    codes: ['EAN', 'Artikelnr.'],
    months: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
    long: (d, m) => `${d} ${m}`,
    units: ['st.', 'uur', 'm²'],
    unitHead: 'Eenheid',
    attn: ['t.a.v.', 'T.a.v.'],
    discount: (r) => `Korting ${r}%`,
    numberInTitle: 'Factuur nr.',
    noVat: 'Btw vrijgesteld op grond van de KOR.',
    articleHead: 'Art.nr.',
    shipTo: 'Afleveradres',
    terms: 'Betaling binnen 14 dagen.',
    phone: () => `Tel. +31 ${int(10, 79)} ${digits(3)} ${digits(4)}`,
    cont: 'Vervolg',
    code: 'EUR',
  },
};
const dd = (n) => String(n).padStart(2, '0');
function fmt(n, thousands, decimal) {
  const [i, f] = Math.abs(n).toFixed(2).split('.');
  return `${n < 0 ? '-' : ''}${i.replace(/\B(?=(\d{3})+(?!\d))/g, thousands)}${decimal}${f}`;
}
const cents = (n) => Math.round(n * 100) / 100;
const iso = (d) => d.toISOString().slice(0, 10);

function iban(country) {
  const bban =
    country === 'NL'
      ? `${pick(['ABNA', 'RABO', 'INGB'])}0${digits(9)}`
      : country === 'GB'
        ? `${pick(['NWBK', 'BARC'])}${digits(14)}`
        : digits(country === 'FR' ? 23 : 18);
  const num = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let r = 0;
  for (const ch of num) r = (r * 10 + Number(ch)) % 97;
  return `${country}${dd(98 - r)}${bban}`;
}
const vatId = (country) =>
  country === 'FR' ? `FR${digits(2)}${digits(9)}` : country === 'NL' ? `NL${digits(9)}B0${int(1, 9)}` : `${country}${digits(9)}`;

// ------------------------------------------------------------------ one invoice
function party(L, company) {
  const name = company ? `${word()} ${pick(L.trades)} ${pick(L.legal)}` : `${word(2)} ${word(2)}`;
  const street =
    L === LANG.fr
      ? `${int(1, 99)} ${pick(L.street)}${word()}`
      : L === LANG.en
        ? `${int(1, 199)}${pick(L.street).replace(/^/, ' ' + word())}`
        : `${word()}${pick(L.street)} ${int(1, 120)}`;
  const city = `${L === LANG.en ? `${word()} ${letters(2)}${int(1, 9)} ${int(1, 9)}${letters(2)}` : `${digits(L === LANG.nl ? 4 : 5)}${L === LANG.nl ? ` ${'KLMN'[int(0, 3)]}${'ABCD'[int(0, 3)]}` : ''} ${word()}`}`;
  return { name, street, city };
}

function invoice(lang) {
  const L = LANG[lang];
  const seller = party(L, true);
  const buyerIsCompany = chance(0.6);
  const buyer = party(L, buyerIsCompany);
  const issued = new Date(Date.UTC(int(2019, 2025), int(0, 11), int(1, 28)));
  const due = chance(0.7) ? new Date(issued.getTime() + pick([10, 14, 30]) * 86400000) : undefined;
  const number = pick([
    () => `${issued.getUTCFullYear()}-${digits(4)}`,
    () => `${word(1).toUpperCase()}${digits(6)}`,
    () => digits(7),
    () => `RE-${digits(5)}`,
  ])();
  // Variants of this document (each independent).
  const longDates = chance(0.3);
  const date = (d) =>
    isoDates ? iso(d) : longDates ? L.long(d.getUTCDate(), L.months[d.getUTCMonth()]) + ` ${d.getUTCFullYear()}` : L.date2(d);
  const bareAmounts = chance(0.3); // amounts without a currency sign, the currency code in the headings
  const money = (n) =>
    codeSuffix
      ? `${fmt(n, L.money(1000).includes(',000') ? ',' : L.money(1000).includes('.000') ? '.' : '\u00a0', L.money(1.5).includes(',5') ? ',' : '.')} ${L.code}`
      : bareAmounts
        ? fmt(
            n,
            L.money(1000).includes(',000') ? ',' : L.money(1000).includes('.000') ? '.' : '\u00a0',
            L.money(1.5).includes(',5') ? ',' : '.',
          )
        : L.money(n);
  const unitColumn = chance(0.3);
  const twoRates = L.rates.length > 1 && chance(0.25);
  const discountRate = chance(0.15) ? pick([2, 3, 5, 10]) : 0;
  const metaRight = chance(0.4);
  const titleNumber = chance(0.2);
  const footerColumns = chance(0.4);
  const footerOnlySeller = chance(0.1); // a brand word as letterhead, the company's legal name only in the footer
  const termsOnly = chance(0.15); // payment terms without a date: no due date printed
  const shipTo = chance(0.2); // a delivery address beside the billing address
  const manyItems = chance(0.12); // items running onto a second page
  const noVat = chance(0.1); // a small business that charges no VAT: no tax line, the total is the net
  const wrapLegal = chance(0.15); // the letterhead's legal form on a line of its own ("Acme Print" / "GmbH")
  const customerLine = chance(0.2); // the customer number printed in the buyer block, over the name
  const sidebar = !metaRight && chance(0.15); // the seller's details in a column down the right side
  const codeSuffix = !noVat && chance(0.15); // amounts followed by the currency code ("1.234,56 EUR")
  const articleColumn = chance(0.2); // an article-number column before the description
  const isoDates = chance(0.1);
  const items = Array.from({ length: manyItems ? int(30, 45) : int(1, 7) }, () => {
    const qty = pick([1, 1, 2, 3, 5, 10, 12]);
    const price = cents(int(150, 250000) / 100);
    return {
      description: `${word()} ${pick(['Modul', 'Set', 'Service', 'Kit', 'Paket', 'Licence', 'Unit'])} ${int(10, 990)}`,
      more: chance(0.2) ? `${word()} ${word()} ${int(2, 40)}` : undefined,
      code: chance(0.35) ? `${pick(L.codes)}: ${digits(13)}` : undefined,
      unit: pick(L.units),
      article: `${letters(2)}-${digits(4)}`,
      rate: twoRates ? pick(L.rates) : L.rates[0],
      quantity: qty,
      unit_price: price,
      amount: cents(qty * price),
    };
  });
  const shipping = chance(0.3) ? cents(int(390, 1990) / 100) : 0;
  const gross = cents(items.reduce((s, it) => s + it.amount, 0));
  const discount = cents((gross * discountRate) / 100);
  const net = cents(gross - discount + shipping);
  // Tax per rate on the discounted item amounts (shipping taxed at the first rate).
  const rates = [...new Set(items.map((it) => it.rate))].sort((a, b) => b - a);
  const baseOf = (r) =>
    cents(
      items.filter((it) => it.rate === r).reduce((s, it) => s + it.amount, 0) * (1 - discountRate / 100) + (r === rates[0] ? shipping : 0),
    );
  const taxes = noVat ? [] : rates.map((r) => [r, cents((baseOf(r) * r) / 100)]);
  const tax = cents(taxes.reduce((s, [, x]) => s + x, 0));
  const total = cents(net + tax);
  const vat = vatId(L.country);
  const account = iban(L.country);
  const want = {
    invoice_number: number,
    invoice_date: iso(issued),
    ...(due ? { due_date: iso(due) } : {}),
    seller_name: seller.name,
    buyer_name: buyer.name,
    currency: L.currency,
    total_amount: total,
    ...(noVat ? {} : { net_amount: net }), // (not printed on a no-VAT invoice: only the total is)
    ...(noVat ? {} : { tax_amount: tax }),
    ...(noVat ? {} : { vat_id: vat }),
    iban: account,
    line_items: items.map((it) => ({
      description: it.more ? `${it.description} ${it.more}` : it.description,
      quantity: it.quantity,
      unit_price: it.unit_price,
      amount: it.amount,
    })),
  };

  const pages = []; // finished pages' runs
  const t = []; // runs of the current page
  const put = (x, y, text, size = 9, right = false, bold = false) => t.push({ x, y, text, size, right, bold });
  // Letterhead.
  const headRight = !metaRight && chance(0.4);
  const legal = pick(L.legal) && seller.name.match(new RegExp(`\\s(${L.legal.map((x) => x.replace(/[.()&]/g, '\\$&')).join('|')})$`))?.[1];
  if (wrapLegal && legal && !footerOnlySeller) {
    put(headRight ? 545 : 50, 34, seller.name.slice(0, -legal.length - 1), 16, headRight, true);
    put(headRight ? 545 : 50, 52, legal, 11, headRight, true);
  } else
    put(
      headRight ? 545 : 50,
      40,
      footerOnlySeller ? seller.name.split(' ')[0].toUpperCase() : seller.name,
      pick([14, 16, 18]),
      headRight,
      true,
    );
  if (!sidebar) put(headRight ? 545 : 50, 66, `${seller.street} · ${seller.city} · ${L.phone()}`, 8, headRight);
  else [seller.street, seller.city, L.phone(), `${pick(L.vat)}: ${vat}`].forEach((l, i) => put(440, 100 + i * 10, l, 7));
  // Address window: a sender line or a role label, then the buyer (a salutation over a person, a contact under a firm).
  const roles = chance(0.3);
  let y = 130;
  if (roles) put(50, y - 14, `${pick(L.buyerRole)}:`, 8, false, true);
  else put(50, y - 12, `${footerOnlySeller ? seller.name.split(' ')[0] : seller.name} · ${seller.street} · ${seller.city}`, 6);
  const contact = buyerIsCompany && chance(0.3) ? [`${pick(L.attn)} ${word(2)} ${word(2)}`] : [];
  const [customerLabel] = L.other[0];
  const lines = [
    ...(roles && customerLine ? [`${customerLabel}: ${digits(6)}`] : []),
    ...(!buyerIsCompany && chance(0.5) ? [pick(L.salutation)] : []),
    buyer.name,
    ...contact,
    buyer.street,
    buyer.city,
  ];
  lines.forEach((l, i) => put(50, y + i * 12, l));
  if (shipTo && !metaRight && !roles && !sidebar) {
    const other = party(L, true);
    put(320, y - 14, `${L.shipTo}:`, 8, false, true);
    [other.name, other.street, other.city].forEach((l, i) => put(320, y + i * 12, l));
  }
  if (roles && !metaRight && !sidebar) {
    put(320, y - 14, `${pick(L.sellerRole)}:`, 8, false, true);
    [seller.name, seller.street, seller.city].forEach((l, i) => put(320, y + i * 12, l));
  }
  // Title and metadata: "label: value" rows (left or right of the address), or a row of headings over their values.
  const meta = [
    ...(titleNumber ? [] : [[pick(L.number), number]]),
    [pick(L.date), date(issued)],
    ...(due && !termsOnly && chance(0.6) ? [[pick(L.due), date(due)]] : []),
  ];
  const [otherLabel, otherValue] = pick(L.other);
  meta.splice(int(0, meta.length), 0, [otherLabel, otherValue ? otherValue() : date(issued)]);
  const title = titleNumber ? `${L.numberInTitle} ${number}` : pick(L.title);
  if (metaRight) {
    put(340, 100, title, 14, false, true);
    meta.forEach(([k, v], i) => (put(340, 125 + i * 12, `${k}:`), put(545, 125 + i * 12, v, 9, true)));
    y = 230;
  } else {
    y = 210;
    put(50, y, title, 16, false, true);
    y += 30;
    if (chance(0.5)) {
      meta.forEach(([k, v], i) => (put(50, y + i * 12, `${k}:`), put(170, y + i * 12, v)));
      y += meta.length * 12 + 20;
    } else {
      meta.forEach(([k, v], i) => (put(50 + i * 125, y, k, 8, false, true), put(50 + i * 125, y + 12, v)));
      y += 40;
    }
  }
  const dueShown = meta.some(([, v]) => due && v === date(due));
  // Items.
  const head = L.head.map((h) => pick(h));
  if (bareAmounts) ((head[3] += ` (${L.code})`), (head[4] += ` (${L.code})`));
  const cols = unitColumn ? [50, 80, 300, 310, 440, 545] : [50, 80, 330, 440, 545];
  if (unitColumn) head.splice(3, 0, L.unitHead);
  if (articleColumn) ((head[0] = L.articleHead), (cols[1] = 110));
  head.forEach((h, i) => put(cols[i], y, h, 8, unitColumn ? i === 2 || i >= 4 : i >= 2, true));
  y += 16;
  items.forEach((it, i) => {
    if (y > 700) {
      // Overleaf: the header again, under a continuation line.
      pages.push(t.splice(0));
      put(50, 40, `${L.cont} – ${title}`, 9, false, true);
      y = 70;
      head.forEach((h, k) => put(cols[k], y, h, 8, unitColumn ? k === 2 || k >= 4 : k >= 2, true));
      y += 16;
    }
    const cells = [
      articleColumn ? it.article : String(i + 1),
      it.description,
      String(it.quantity),
      ...(unitColumn ? [it.unit] : []),
      money(it.unit_price),
      money(it.amount),
    ];
    cells.forEach((c, k) => put(cols[k], y, c, 9, unitColumn ? k === 2 || k >= 4 : k >= 2));
    y += 11;
    if (it.more) (put(cols[1], y, it.more), (y += 11));
    if (it.code) (put(cols[1], y, it.code, 7), (y += 10));
    y += 4;
  });
  // Totals.
  y += 10;
  const sums = [
    ...(discountRate
      ? [
          [L.net === LANG.en.net ? 'Subtotal' : pick(['Zwischensumme', 'Sous-total', 'Subtotaal', 'Subtotal']), gross],
          [L.discount(discountRate), -discount],
        ]
      : []),
    ...(shipping ? [[L.shipping, shipping]] : []),
    ...(noVat ? [] : [[pick(L.net), net]]),
    ...taxes.map(([r, x]) => [L.tax(r), x]),
    [`${pick(L.total)}${bareAmounts ? ` ${L.code}` : ''}`, total],
  ];
  sums.forEach(([k, v], i) => {
    const last = i === sums.length - 1;
    put(330, y, k, last ? 10 : 9, false, last);
    put(545, y, money(v), last ? 10 : 9, true, last);
    y += 14;
  });
  y += 20;
  if (noVat) (put(50, y, L.noVat), (y += 14));
  put(50, y, termsOnly ? L.terms : due && !dueShown ? L.pay(date(due)) : L.thanks);
  if (due && !dueShown && !termsOnly) want.due_date = iso(due);
  else if (!dueShown) delete want.due_date;
  // Footer: two lines across the page, or three columns (address, bank, registry).
  const bic = `${word(2).toUpperCase().slice(0, 4)}${L.country}${word(1).toUpperCase().slice(0, 2)}`;
  const printedIban = account.replace(/(.{4})/g, '$1 ').trim();
  const year = chance(0.5) || footerOnlySeller ? `${footerOnlySeller ? '' : `© ${issued.getUTCFullYear()} `}${seller.name} · ` : '';
  if (footerColumns && !footerOnlySeller) {
    [seller.name, seller.street, seller.city].forEach((l, i) => put(50, 760 + i * 8, l, 6));
    [`IBAN: ${printedIban}`, `BIC: ${bic}`].forEach((l, i) => put(230, 760 + i * 8, l, 6));
    [...(noVat ? [] : [`${pick(L.vat)}: ${vat}`]), L.registry(word())].forEach((l, i) => put(400, 760 + i * 8, l, 6));
  } else {
    put(50, 770, `${year}${L.registry(word())}`, 6);
    put(50, 780, `${noVat ? '' : `${pick(L.vat)}: ${vat} · `}IBAN: ${printedIban} · BIC: ${bic}`, 6);
  }
  pages.push(t);
  return { pages, want };
}

const dataset = datasetWriter(out);
writeFileSync(join(out, 'schema.json'), readFileSync(join(repo, '../shared/corpus/invoice2data/schema.json')));
const langs = Object.keys(LANG);
for (let i = 0; i < count; i++) {
  const lang = langs[i % langs.length];
  const { pages, want } = invoice(lang);
  dataset.add(`synth-${lang}-${String(i).padStart(3, '0')}`, {
    bytes: await pdfOfRuns(pages),
    ext: 'pdf',
    mediaType: 'application/pdf',
    want,
  });
}
dataset.finish();
console.log(`${count} invented invoices in ${out}`);
