#!/usr/bin/env node
// A generalisation probe for business invoices as ERP and office programs print them: INVENTED invoices (the seeded
// data of templates/invented.mjs: article codes, note sub-lines, discounts, two or three tax rates, enough items to run
// over pages) laid out as a German DIN 5008 business letter or an English one — sender line over the address window,
// an information block beside it, an item table with a position column, per-rate tax lines, payment terms, a footer
// of bank and registry columns — written as HTML and printed to PDF by LibreOffice Writer (headless), whose text
// layer (Liberation/DejaVu fonts, its own word spacing and table padding) no development set is printed with.
// Written before its documents were read by the engine, and not to be changed to suit it.
//   apt-get install --no-install-recommends libreoffice-writer-nogui poppler-utils
//   node tools/eval/synth-office-invoices.mjs --out /tmp/synth-office-invoices [--count 40] [--seed 5]
//   PROBE_LANGUAGES=fr node tools/eval/synth-office-invoices.mjs …   languages drawn (default de,de,en,fr)
//   npm run eval -- --corpus /tmp/synth-office-invoices
// Expected values follow invoices-wide's conventions: a line's description is its title and its note sub-line (an
// article code printed under the title is not description text); amount is the line's net amount; tax_amount is the
// sum of the rates' tax; a value is expected only when its printed form is on the page (poppler's pdftotext).
import { cliOptions, datasetWriter, printWithOffice, randomSource } from './synth.common.mjs';
import { invent } from './templates/invented.mjs';
import { decimal, money, quantity, shortDate } from './templates/common.mjs';
import { printed } from './templates/render.mjs';
import { INVOICE_SCHEMA } from './invoices-wide.sources.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-office-invoices', count: 40, seed: 5 });
const { pick, chance, int } = randomSource(seed, ['x']);
const FONTS = ['Liberation Sans', 'Liberation Serif', 'DejaVu Sans'];
/** Languages drawn (German twice as often: the e-invoice mandates' first market). */
const LANGUAGES = (process.env.PROBE_LANGUAGES ?? 'de,de,en,fr').split(',');

/** Printed words of each language: several ways of saying each thing, as different programs do. */
const WORDS = {
  de: {
    title: ['Rechnung', 'RECHNUNG', 'Rechnung Nr. {no}'],
    number: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Beleg-Nr.'],
    date: ['Rechnungsdatum', 'Datum', 'Belegdatum'],
    customer: ['Kundennummer', 'Kunden-Nr.'],
    delivery: ['Lieferdatum', 'Leistungsdatum'],
    greeting: 'Sehr geehrte Damen und Herren, wir berechnen Ihnen wie vereinbart:',
    cols: {
      pos: 'Pos.',
      code: 'Art.-Nr.',
      desc: ['Bezeichnung', 'Artikel / Leistung', 'Beschreibung'],
      qty: 'Menge',
      unit: 'Einheit',
      price: ['Einzelpreis', 'E-Preis', 'Preis/Einh.'],
      disc: 'Rabatt',
      vat: 'USt.',
      amount: ['Gesamtpreis', 'Betrag', 'Gesamt'],
    },
    codeLine: 'Art.-Nr.',
    breakdown: ['USt-Satz', 'Netto', 'USt', 'Brutto'],
    discountLine: 'abzgl. {pct} % Rabatt',
    net: ['Nettobetrag', 'Summe netto', 'Warenwert netto'],
    tax: ['zzgl. {rate} % USt.', 'MwSt. {rate} %', '{rate} % Umsatzsteuer'],
    total: ['Gesamtbetrag', 'Rechnungsbetrag', 'Endbetrag brutto'],
    due: ['Zahlbar bis {due} ohne Abzug.', 'Fällig am {due}.', 'Bitte überweisen Sie den Betrag bis zum {due}.'],
    vat: 'USt-IdNr.',
    manager: 'Geschäftsführer',
    register: 'Amtsgericht {city} HRB {n}',
  },
  en: {
    title: ['Invoice', 'INVOICE', 'Tax Invoice {no}'],
    number: ['Invoice No.', 'Invoice number', 'Document no.'],
    date: ['Invoice date', 'Date', 'Tax point'],
    customer: ['Customer No.', 'Account'],
    delivery: ['Delivery date', 'Supply date'],
    greeting: 'Thank you for your order. We invoice you as follows:',
    cols: {
      pos: 'No.',
      code: 'Item code',
      desc: ['Description', 'Item', 'Product / Service'],
      qty: 'Qty',
      unit: 'Unit',
      price: ['Unit price', 'Price', 'Rate'],
      disc: 'Disc.',
      vat: 'VAT',
      amount: ['Amount', 'Net', 'Line total'],
    },
    codeLine: 'Item code',
    breakdown: ['VAT rate', 'Net', 'VAT', 'Gross'],
    discountLine: 'less {pct}% discount',
    net: ['Net total', 'Subtotal', 'Goods total'],
    tax: ['VAT {rate}%', 'VAT @ {rate}%', 'Plus {rate}% VAT'],
    total: ['Total', 'Amount due', 'Invoice total'],
    due: ['Payment due by {due}.', 'Please pay by {due}.', 'Due date: {due}'],
    vat: 'VAT Reg. No.',
    manager: 'Director',
    register: 'Registered in {city}, company no. {n}',
  },
  fr: {
    title: ['Facture', 'FACTURE', 'Facture n° {no}'],
    number: ['N° de facture', 'Facture n°', 'Numéro'],
    date: ['Date de facture', 'Date', "Date d'émission"],
    customer: ['N° client', 'Code client'],
    delivery: ['Date de livraison', 'Date de prestation'],
    greeting: 'Madame, Monsieur, veuillez trouver ci-dessous le détail de notre facture :',
    cols: {
      pos: 'N°',
      code: 'Réf.',
      desc: ['Désignation', 'Description', 'Article / Prestation'],
      qty: 'Qté',
      unit: 'Unité',
      price: ['Prix unitaire HT', 'P.U. HT', 'Prix unit.'],
      disc: 'Remise',
      vat: 'TVA',
      amount: ['Montant HT', 'Total HT', 'Montant'],
    },
    codeLine: 'Réf.',
    breakdown: ['Taux TVA', 'Base HT', 'Montant TVA', 'TTC'],
    discountLine: 'remise de {pct} %',
    net: ['Total HT', 'Montant HT', 'Sous-total HT'],
    tax: ['TVA {rate} %', 'TVA à {rate} %', 'Montant TVA {rate} %'],
    total: ['Total TTC', 'Net à payer', 'Montant TTC'],
    due: ['Échéance : {due}', 'À régler avant le {due}.', 'Date d’échéance : {due}'],
    vat: 'N° TVA intracom.',
    manager: 'Gérant',
    register: 'RCS {city} {n}',
  },
};
const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (_, k) => vars[k]);
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One invoice: the invented data, the printing choices, its HTML and the values expected from it (with their surfaces). */
function invoice(i) {
  const lang = pick(LANGUAGES);
  const W = WORDS[lang];
  const columns = pick(['coded', 'sublined', 'plain', 'discounted']);
  const inv = invent(seed * 1000 + i, lang, {
    ...(columns === 'coded' || columns === 'discounted' ? {} : { noDiscount: true }),
    ...(chance(0.3) ? { items: [25, 40] } : {}),
  });
  const fmt = { date: (d) => shortDate(inv, d) };
  const currencyShown = chance(0.5) ? 'symbol' : 'code';
  const m = (x) => (currencyShown === 'symbol' ? money(inv, x) : `${decimal(inv, x)} ${inv.currency}`);
  const choice = { font: pick(FONTS), ruled: chance(0.5), dueShown: chance(0.75), sellerRight: chance(0.5), breakdown: chance(0.35) };
  const html = page(inv, W, columns, choice, m, fmt);
  const want = {
    invoice_number: [inv.number, inv.number],
    invoice_date: [inv.date, fmt.date(inv.date)],
    ...(choice.dueShown ? { due_date: [inv.due, fmt.date(inv.due)] } : {}),
    seller_name: [inv.seller.name, inv.seller.name],
    buyer_name: [inv.buyer.name, inv.buyer.name],
    currency: [
      inv.currency,
      currencyShown === 'symbol' ? money(inv, 1).replace(/[\d.,\s\u00a0\u202f]/g, '') || inv.currency : inv.currency,
    ],
    total_amount: [inv.total, m(inv.total)],
    net_amount: [inv.net, m(inv.net)],
    // (A breakdown table prints each rate's tax without the currency.)
    tax_amount: [inv.tax, inv.taxes.map((t) => (choice.breakdown ? decimal(inv, t.amount) : m(t.amount)))],
    vat_id: [inv.seller.vat_id, inv.seller.vat_id],
    iban: [inv.bank.iban, inv.bank.iban],
  };
  const items = inv.items.map((it) => ({
    // (Each word of the cell printed: a wrapped title or note is still the cell's text.)
    description: [it.note ? `${it.title} ${it.note}` : it.title, `${it.title} ${it.note}`.trim().split(/\s+/)],
    quantity: [it.qty, quantity(inv, it.qty)],
    unit_price: [it.price, decimal(inv, it.price)],
    // (A discount printed as a sub-line under its item leaves the item's own line at its gross amount.)
    amount: columns === 'discounted' ? [it.gross, decimal(inv, it.gross)] : [it.net, decimal(inv, it.net)],
  }));
  return { id: `office-invoice-${String(i).padStart(3, '0')}-${lang}-${columns}`, html, want, items };
}

function page(inv, W, columns, c, m, fmt) {
  const s = inv.seller;
  const b = inv.buyer;
  const vars = { no: inv.number, due: fmt.date(inv.due) };
  const head = `<p style="font-size:16pt" align="${c.sellerRight ? 'right' : 'left'}"><b>${esc(s.name)}</b></p>`;
  const sender = `<p style="font-size:7pt"><u>${esc(`${s.name} · ${s.street} · ${s.zip} ${s.city}`)}</u></p>`;
  const address = [b.name, ...(chance(0.3) ? [b.contact] : []), b.street, `${b.zip} ${b.city}`];
  const info = [
    [pick(W.number), inv.number],
    [pick(W.date), fmt.date(inv.date)],
    [pick(W.customer), b.number],
    ...(chance(0.5) ? [[pick(W.delivery), fmt.date(inv.date)]] : []),
  ];
  // (One flat table: the address window's lines on the left, the information block's rows beside them.)
  const rows = Array.from({ length: Math.max(address.length, info.length) }, (_, k) => {
    const [label, value] = info[k] ?? ['', ''];
    return `<tr><td width="55%">${esc(address[k] ?? '')}</td><td width="25%">${label ? `${esc(label)}:` : ''}</td><td align="right">${esc(value)}</td></tr>`;
  });
  const letter = `${sender}<table width="100%" cellspacing="0" cellpadding="1">${rows.join('')}</table>`;
  const title = `<h2>${esc(fill(pick(W.title), vars))}</h2><p>${esc(W.greeting)}</p>`;
  const due = c.dueShown ? `<p>${esc(fill(pick(W.due), vars))}</p>` : '';
  return `<html><head><meta charset="utf-8"></head><body style="font-family:'${c.font}'; font-size:10pt">
${head}${letter}${title}${itemTable(inv, W, columns, c)}${totals(inv, W, m, c.breakdown)}${due}${footer(inv, W)}</body></html>`;
}

function itemTable(inv, W, columns, c) {
  const C = W.cols;
  const cols =
    columns === 'coded'
      ? [C.pos, C.code, pick(C.desc), C.qty, C.unit, pick(C.price), C.disc, C.vat, pick(C.amount)]
      : columns === 'sublined' || columns === 'discounted'
        ? [C.pos, pick(C.desc), C.qty, pick(C.price), pick(C.amount)]
        : [C.qty, C.unit, pick(C.desc), pick(C.price), pick(C.amount)];
  const right = (v) => `<td align="right" valign="top" nowrap>${esc(v)}</td>`;
  const desc = (it, code) =>
    `<td valign="top">${esc(it.title)}${it.note ? `<br><i>${esc(it.note)}</i>` : ''}${code ? `<br><font size="1">${esc(`${W.codeLine} ${it.code}`)}</font>` : ''}</td>`;
  const rows = inv.items.map((it, k) => {
    const q = quantity(inv, it.qty);
    const p = decimal(inv, it.price);
    const a = decimal(inv, it.net);
    if (columns === 'coded')
      return `<tr>${right(k + 1)}<td valign="top">${esc(it.code)}</td>${desc(it, false)}${right(q)}<td valign="top">${esc(it.unit)}</td>${right(p)}${right(
        it.discountPct ? `${it.discountPct} %` : '',
      )}${right(`${decimal(inv, it.taxRate, it.taxRate % 1 ? 1 : 0)} %`)}${right(a)}</tr>`;
    if (columns === 'discounted') {
      const item = `<tr>${right(k + 1)}${desc(it, false)}${right(`${q} ${it.unit}`)}${right(p)}${right(decimal(inv, it.gross))}</tr>`;
      const off = fill(W.discountLine, { pct: it.discountPct });
      return it.discountPct ? `${item}<tr><td></td><td>${esc(off)}</td><td></td><td></td>${right(decimal(inv, -it.discount))}</tr>` : item;
    }
    if (columns === 'sublined') return `<tr>${right(k + 1)}${desc(it, true)}${right(`${q} ${it.unit}`)}${right(p)}${right(a)}</tr>`;
    return `<tr>${right(q)}<td valign="top">${esc(it.unit)}</td>${desc(it, false)}${right(p)}${right(a)}</tr>`;
  });
  const border = c.ruled ? ' border="1" cellspacing="0"' : ' cellspacing="0"';
  // Column widths in per cent: the description takes what the figures leave (figures never wrap).
  const widths = {
    coded: [4, 10, 30, 7, 7, 11, 7, 8, 16],
    sublined: [5, 45, 14, 16, 20],
    discounted: [5, 45, 14, 16, 20],
    plain: [8, 9, 47, 16, 20],
  }[columns];
  return `<table width="100%"${border} cellpadding="2" style="font-size:${columns === 'coded' ? 8 : 9}pt"><thead><tr>${cols
    .map((h, k) => `<th align="left" width="${widths[k]}%" nowrap>${esc(h)}</th>`)
    .join('')}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function totals(inv, W, m, breakdown) {
  const b = (v, bold) => (bold ? `<b>${esc(v)}</b>` : esc(v));
  const line = (k, v, bold = false) =>
    `<tr><td width="45%"></td><td width="33%">${b(k, bold)}</td><td align="right" nowrap>${b(v, bold)}</td></tr>`;
  const rate = (t) => `${decimal(inv, t.rate, t.rate % 1 ? 1 : 0)} %`;
  const net = line(pick(W.net), m(inv.net));
  const total = line(pick(W.total), m(inv.total), true);
  // A tax breakdown table (rate, base, tax, gross per rate), as many ERP programs print it, or one line per rate.
  if (breakdown) {
    const cells = (vs) => vs.map((v, k) => `<td${k ? ' align="right"' : ''}>${esc(v)}</td>`).join('');
    const rows = inv.taxes.map(
      (t) => `<tr>${cells([rate(t), decimal(inv, t.base), decimal(inv, t.amount), decimal(inv, t.base + t.amount)])}</tr>`,
    );
    const breakdown = `<table width="60%" cellpadding="1" style="font-size:8pt"><tr>${cells(W.breakdown)}</tr>${rows.join('')}</table>`;
    return `<table width="100%" cellpadding="1">${net}</table>${breakdown}<table width="100%" cellpadding="1">${total}</table>`;
  }
  // (One phrasing per invoice, each rate's line in it.)
  const taxWords = pick(W.tax);
  const taxes = inv.taxes.map((t) => line(fill(taxWords, { rate: rate(t).replace(' %', '') }), m(t.amount)));
  return `<table width="100%" cellpadding="1">${net}${taxes.join('')}${total}</table>`;
}

function footer(inv, W) {
  const s = inv.seller;
  const cell = (lines) => `<td valign="top" style="font-size:7pt">${lines.map(esc).join('<br>')}</td>`;
  return `<hr><table width="100%"><tr>${cell([s.name, s.street, `${s.zip} ${s.city}`, s.phone])}${cell([
    inv.bank.name,
    `IBAN ${inv.bank.iban}`,
    `BIC ${inv.bank.bic}`,
  ])}${cell([`${W.vat} ${s.vat_id}`, `${W.manager}: ${s.contact}`, fill(W.register, { city: s.city, n: int(10000, 99999) })])}</tr></table>`;
}

const docs = Array.from({ length: count }, (_, i) => invoice(i));
const pdfs = printWithOffice(docs.map((d) => d.html));
const dataset = datasetWriter(out);
let dropped = 0;
docs.forEach((d, k) => {
  const { bytes, layout, raw } = pdfs[k];
  const texts = { layout, raw };
  const keep = (entries) =>
    Object.fromEntries(entries.filter(([, [, surface]]) => printed(texts, surface) || (dropped++, false)).map(([key, [v]]) => [key, v]));
  const want = { ...keep(Object.entries(d.want)), line_items: d.items.map((it) => keep(Object.entries(it))) };
  dataset.add(d.id, { bytes, ext: 'pdf', mediaType: 'application/pdf', want, schema: INVOICE_SCHEMA });
});
dataset.finish();
console.log(`${count} invented office-printed invoices in ${out} (${dropped} values not found printed, left out)`);
