// Kimai (github:kimai/kimai, AGPL-3.0) invoice renderers: Twig templates under templates/invoice/renderer/.
// The context is the flat key map Kimai's InvoiceModel hydrators build (invoice.*, template.*, customer.*,
// entry.*), filled with invented data and formatted as Kimai's formatters do; `trans` reads Kimai's own
// translations/messages.<lang>.xlf. Kimai's webpack CSS bundle (encore_entry_css_source) is not rebuilt here: the
// pages print with Chromium's default styles.
import { renderTwig } from './render.mjs';
import {
  addDays,
  itemLabel,
  countryName,
  currencySurface,
  headerLabels,
  taxTotal,
  itemText,
  label,
  money,
  quantity,
  shortDate,
  table,
} from './common.mjs';

export const KIMAI = { repo: 'kimai/kimai', commit: '1f421c276badbf9eeff40852de305a1e4c1e829f', licence: 'AGPL-3.0-only' };
const DIR = 'templates/invoice/renderer';
/** The document title is a per-template setting in Kimai (free text), set here per language. */
const TITLES = { en: 'Invoice', de: 'Rechnung', fr: 'Facture' };

/** resname -> target of one XLIFF file (Kimai's translation format). */
export function xliff(text) {
  const map = {};
  for (const m of text.matchAll(/<trans-unit[^>]*resname="([^"]+)"[^>]*>[\s\S]*?<target[^>]*>([\s\S]*?)<\/target>/g)) map[m[1]] = m[2];
  return map;
}

function translator(git, lang) {
  const own = xliff(git.text(`translations/messages.${lang}.xlf`));
  const en = lang === 'en' ? own : xliff(git.text('translations/messages.en.xlf'));
  return (key, params = {}) => {
    let s = own[key] ?? en[key] ?? key;
    for (const [k, v] of Object.entries(params)) s = s.split(k).join(String(v));
    return s;
  };
}

function helpers(trans) {
  return {
    filters: {
      trans: (v, params) => trans(String(v), params ?? {}),
      nl2str: (v, sep) =>
        String(v ?? '')
          .split('\n')
          .join(sep),
      country_name: (code, lang) => countryName(code, lang),
      money: (v, currency) => v.formatted ?? String(v),
      md2html: (v) =>
        String(v ?? '')
          .split(/\n{2,}/)
          .map((p) => `<p>${p}</p>`)
          .join(''),
      u: (v) => ({
        snake: String(v)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '_'),
      }),
    },
    functions: { encore_entry_css_source: () => '' },
  };
}

function context(inv, trans) {
  const address = (p) => `${p.street}\n${p.zip} ${p.city}`;
  const entries = inv.items.map((it, i) => ({
    'entry.begin': shortDate(inv, addDays(inv.date, -1 - (i % 20))),
    'entry.description': itemText(it),
    'entry.rate': money(inv, it.price),
    'entry.amount': quantity(inv, it.qty),
    'entry.total': money(inv, it.gross),
    'entry.project': it.code,
    'entry.user_display': inv.seller.contact,
  }));
  const taxRows = inv.taxes.map((t) => ({
    show: true,
    name: 'vat',
    rate: t.rate,
    note: null,
    counter: 0,
    amount: { formatted: money(inv, t.amount) },
    currency: inv.currency,
  }));
  const invoice = {
    'invoice.language': inv.lang,
    'invoice.number': inv.number,
    'invoice.date': shortDate(inv, inv.date),
    'invoice.due_date': shortDate(inv, inv.due),
    'invoice.subtotal': money(inv, inv.net),
    'invoice.total': money(inv, inv.total),
    'invoice.tax_rows': taxRows,
    'invoice.first_month': '01',
    'invoice.last_month': '01',
    'invoice.first_year': inv.date.slice(0, 4),
    'invoice.last_year': inv.date.slice(0, 4),
    'invoice.first': shortDate(inv, addDays(inv.date, -20)),
    'invoice.last': shortDate(inv, addDays(inv.date, -1)),
    'invoice.duration_decimal': quantity(
      inv,
      inv.items.reduce((a, it) => a + it.qty, 0),
    ),
    'template.title': TITLES[inv.lang],
    'template.company': inv.seller.name,
    'template.address': address(inv.seller),
    'template.country': inv.seller.country,
    'template.vat_id': inv.seller.vat_id,
    'template.contact': `${inv.seller.phone}\n${inv.seller.email}`,
    'template.payment_details': `${inv.bank.name}\nIBAN: ${inv.bank.iban}\nBIC: ${inv.bank.bic}`,
    'template.payment_terms': inv.terms,
    'customer.company': inv.buyer.name,
    'customer.name': inv.buyer.contact,
    'customer.contact': inv.buyer.contact,
    'customer.address': address(inv.buyer),
    'customer.country': inv.buyer.country,
    'customer.vat_id': inv.buyer.vat_id,
    'customer.number': inv.buyer.number,
    'project.counter': 2,
    'user.see_others': true,
  };
  return { invoice, entries };
}

const PRICED_COLUMNS = (trans, withDate) => [
  ...(withDate ? [{ label: trans('date'), role: null, type: 'string' }] : []),
  { label: trans('description'), role: 'description', type: 'string' },
  { label: trans('unit_price'), role: 'unit_price', type: 'number' },
  { label: trans('amount'), role: 'quantity', type: 'number' },
  { label: trans('total_rate'), role: 'amount', type: 'number' },
];

function pricedDesign(file, withDate) {
  return {
    program: 'Kimai',
    source: 'kimai',
    design: file.replace(/\..*$/, ''),
    path: `${DIR}/${file}`,
    langs: ['en', 'de', 'fr'],
    invoice: true,
    opts: {},
    render(git, inv) {
      const trans = translator(git, inv.lang);
      const ctx = context(inv, trans);
      const html = renderTwig(git.text(this.path), ctx, helpers(trans));
      const formats = { date: (d) => shortDate(inv, d), money: (x) => money(inv, x), currency: currencySurface(inv) };
      const fields = headerLabels(
        inv,
        [
          'invoice_number',
          'invoice_date',
          'due_date',
          'seller_name',
          'buyer_name',
          'currency',
          'total_amount',
          'net_amount',
          'vat_id',
          'iban',
        ],
        formats,
      );
      fields.tax_amount = taxTotal(
        inv.tax,
        inv.taxes.map((t) => t.amount),
        (x) => money(inv, x),
      );
      const rows = inv.items.map((it, i) => [
        ...(withDate ? [label(ctx.entries[i]['entry.begin'], ctx.entries[i]['entry.begin'])] : []),
        itemLabel(it),
        label(it.price, money(inv, it.price)),
        label(it.qty, quantity(inv, it.qty)),
        label(it.gross, money(inv, it.gross)),
      ]);
      return { html, fields, tables: [table('line items', PRICED_COLUMNS(trans, withDate), rows)] };
    },
  };
}

/** The timesheet design lists working time only (no prices): a report table for tables-wide. */
const timesheet = {
  program: 'Kimai',
  source: 'kimai',
  design: 'timesheet',
  path: `${DIR}/timesheet.html.twig`,
  langs: ['en', 'de', 'fr'],
  invoice: false,
  opts: {},
  render(git, inv) {
    const trans = translator(git, inv.lang);
    const ctx = context(inv, trans);
    const html = renderTwig(git.text(this.path), ctx, helpers(trans));
    const columns = [
      { label: trans('date'), role: null, type: 'string' },
      { label: trans('user'), role: null, type: 'string' },
      { label: trans('activity'), role: null, type: 'string' },
      { label: trans('hours'), role: null, type: 'number' },
    ];
    const rows = ctx.entries.map((e, i) => [
      label(e['entry.begin'], e['entry.begin']),
      label(inv.seller.contact, inv.seller.contact),
      itemLabel(inv.items[i]),
      label(inv.items[i].qty, e['entry.amount']),
    ]);
    return { html, fields: {}, tables: [table('timesheet', columns, rows)] };
  },
};

export const KIMAI_DESIGNS = [
  pricedDesign('default.pdf.twig', true),
  pricedDesign('invoice.html.twig', true),
  pricedDesign('service-date.pdf.twig', false),
  timesheet,
];
