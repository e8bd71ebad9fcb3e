// Crater (github:crater-invoice/crater, AGPL-3.0) invoice PDF designs: resources/views/app/pdf/invoice/invoice{1,2,3}
// .blade.php with the shared partials/table.blade.php. Blade is compiled by ./blade.mjs and run by Debian's
// php-cli with the program's own app/Space/helpers.php (format_money_pdf). The data is what Invoice::getPDFData
// shares with the view; addresses and notes go through a port of GeneratesPdfTrait::getFormattedString with the
// default address formats of Company::setupDefaultSettings; `@lang` reads the program's locale JSON (en, de, fr);
// currencies come from its CurrenciesTableSeeder; amounts are integers in cents, as Crater stores them.
import { renderPhp } from './render.mjs';
import { compileBlade } from './blade.mjs';
import { headerLabels, itemLabel, itemText, label, table, taxTotal } from './common.mjs';

export const CRATER = { repo: 'crater-invoice/crater', commit: '05d5ce26fdd8d9466009163444e944259bc0cc2a', licence: 'AGPL-3.0' };
const VIEWS = 'resources/views';
/** The date format (Carbon) a user picks in Crater's preferences, per language. */
const DATE_FORMAT = { en: 'Y/m/d', de: 'd.m.Y', fr: 'd/m/Y' };
const COMPANY_FORMAT =
  '<h3><strong>{COMPANY_NAME}</strong></h3><p>{COMPANY_ADDRESS_STREET_1}</p><p>{COMPANY_ADDRESS_STREET_2}</p><p>{COMPANY_CITY} {COMPANY_STATE}</p><p>{COMPANY_COUNTRY}  {COMPANY_ZIP_CODE}</p><p>{COMPANY_PHONE}</p>';
const BILLING_FORMAT =
  '<h3>{BILLING_ADDRESS_NAME}</h3><p>{BILLING_ADDRESS_STREET_1}</p><p>{BILLING_ADDRESS_STREET_2}</p><p>{BILLING_CITY}  {BILLING_STATE}</p><p>{BILLING_COUNTRY}  {BILLING_ZIP_CODE}</p><p>{BILLING_PHONE}</p>';

const SCRIPT = `
function e($value) { return htmlspecialchars((string) $value, ENT_QUOTES, 'UTF-8', true); }
$L = (array) $ctx->lang;
function __tpl_lang($key) { global $L; return $L[$key] ?? $key; }
final class App { public static function isLocale($locale) { global $ctx; return $ctx->locale === $locale; } }
require __DIR__ . '/helpers.php';
extract((array) $ctx->vars);
include __DIR__ . '/view.php';
`;

/** GeneratesPdfTrait::getFormattedString: placeholders replaced (HTML-escaped), empty tags and <p> removed. */
function formatted(format, values) {
  const esc = (v) =>
    String(v ?? '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#039;');
  let s = format.replace(/\{[A-Z0-9_]+\}/g, (k) => (k.slice(1, -1) in values ? esc(values[k.slice(1, -1)]) : k)).replace(/\n/g, '<br />\n');
  s = s.replace(/\{(.*?)\}/g, '').replace(/<[^/>]*>([\s]?)*<\/[^>]*>/g, '');
  return s.replaceAll('<p>', '').replaceAll('</p>', '</br>');
}

/** One currency row of database/seeders/CurrenciesTableSeeder.php. */
function currency(git, code) {
  const text = git.text('database/seeders/CurrenciesTableSeeder.php');
  const block = new RegExp(`\\[[^\\[\\]]*'code' => '${code}'[^\\[\\]]*\\]`).exec(text)?.[0];
  if (!block) throw new Error(`crater: no currency ${code} in the seeder`);
  const row = Object.fromEntries(
    [...block.matchAll(/'(\w+)' => ('((?:[^'\\]|\\.)*)'|true|false)/g)].map((m) => [
      m[1],
      m[3] !== undefined ? m[3].replace(/\\'/g, "'") : m[2] === 'true',
    ]),
  );
  return { ...row, precision: Number(row.precision), swap_currency_symbol: row.swap_currency_symbol ?? false };
}
/** format_money_pdf without its font span: what the page prints. */
function moneyText(cents, c) {
  const [int, frac] = (Math.abs(cents) / 100).toFixed(c.precision).split('.');
  const n = `${cents < 0 ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, c.thousand_separator)}${frac ? c.decimal_separator + frac : ''}`;
  return c.swap_currency_symbol ? `${n}${c.symbol}` : `${c.symbol}${n}`;
}
const carbon = (iso, fmt) => {
  const [y, m, d] = iso.split('-');
  return fmt.replace('d', d).replace('m', m).replace('Y', y);
};
const cents = (x) => Math.round(x * 100);

function amounts(inv) {
  const items = inv.items.map((it) => ({ it, total: cents(it.net), tax: Math.round((cents(it.net) * it.taxRate) / 100) }));
  const rates = [...new Set(items.map((x) => x.it.taxRate))].sort((a, b) => b - a);
  const taxes = rates.map((r) => ({ percent: r, amount: items.filter((x) => x.it.taxRate === r).reduce((a, x) => a + x.tax, 0) }));
  const sub = items.reduce((a, x) => a + x.total, 0),
    tax = taxes.reduce((a, t) => a + t.amount, 0);
  return { items, taxes, sub, tax, total: sub + tax };
}

function context(git, inv, cur) {
  const s = inv.seller,
    b = inv.buyer,
    a = amounts(inv),
    fmt = DATE_FORMAT[inv.lang];
  const taxName = inv.lang === 'de' ? 'MwSt.' : inv.lang === 'fr' ? 'TVA' : 'VAT';
  const taxes = a.taxes.map((t) => ({ name: taxName, percent: t.percent, amount: t.amount }));
  const withDiscount = inv.items.some((it) => it.discountPct > 0);
  const items = a.items.map(({ it, total, tax }) => ({
    name: it.title,
    description: it.note,
    quantity: it.qty,
    unit_name: it.unit,
    price: cents(it.price),
    discount_type: 'percentage',
    discount: it.discountPct,
    discount_val: cents(it.discount),
    tax,
    total,
  }));
  const invoice = {
    invoice_number: inv.number,
    formattedInvoiceDate: carbon(inv.date, fmt),
    formattedDueDate: carbon(inv.due, fmt),
    customer: { currency: cur, company: { name: s.name } },
    items,
    discount_per_item: withDiscount ? 'YES' : 'NO',
    tax_per_item: 'YES',
    sub_total: a.sub,
    discount: 0,
    total: a.total,
    taxes: [],
  };
  const company = formatted(COMPANY_FORMAT, {
    COMPANY_NAME: s.name,
    COMPANY_ADDRESS_STREET_1: s.street,
    COMPANY_CITY: s.city,
    COMPANY_ZIP_CODE: s.zip,
    COMPANY_COUNTRY: new Intl.DisplayNames([inv.lang], { type: 'region' }).of(s.country),
    COMPANY_PHONE: s.phone,
  });
  const billing = formatted(BILLING_FORMAT, {
    BILLING_ADDRESS_NAME: b.name,
    BILLING_ADDRESS_STREET_1: b.street,
    BILLING_CITY: b.city,
    BILLING_ZIP_CODE: b.zip,
    BILLING_COUNTRY: new Intl.DisplayNames([inv.lang], { type: 'region' }).of(b.country),
    BILLING_PHONE: b.phone,
  });
  const vars = {
    invoice,
    customFields: [],
    company_address: company,
    shipping_address: false,
    billing_address: billing,
    notes: formatted(inv.terms, {}),
    logo: null,
    taxes,
  };
  return { ctx: { vars, locale: inv.lang, lang: JSON.parse(git.text(`resources/scripts/locales/${inv.lang}.json`)) }, a };
}

function design(name) {
  return {
    program: 'Crater',
    source: 'crater',
    design: name,
    path: `${VIEWS}/app/pdf/invoice/${name}.blade.php`,
    langs: ['en', 'de', 'fr'],
    invoice: true,
    opts: {},
    render(git, inv) {
      const cur = currency(git, inv.currency);
      const { ctx, a } = context(git, inv, cur);
      const view = compileBlade(git.text(this.path), (v) => git.text(`${VIEWS}/${v.replace(/\./g, '/')}.blade.php`));
      const html = renderPhp(SCRIPT, ctx, { 'view.php': view, 'helpers.php': git.text('app/Space/helpers.php') });
      const money = (c) => moneyText(c, cur);
      const formats = { date: (d) => carbon(d, DATE_FORMAT[inv.lang]), money: (x) => money(cents(x)), currency: cur.symbol };
      const fields = {
        ...headerLabels(inv, ['invoice_number', 'invoice_date', 'due_date', 'seller_name', 'buyer_name', 'currency'], formats),
        total_amount: label(a.total / 100, money(a.total)),
        net_amount: label(a.sub / 100, money(a.sub)),
        tax_amount: taxTotal(
          a.tax / 100,
          a.taxes.map((t) => t.amount / 100),
          (x) => money(Math.round(x * 100)),
        ),
      };
      const t = ctx.lang;
      const withDiscount = ctx.vars.invoice.discount_per_item === 'YES';
      const columns = [
        { label: '#', role: null, type: 'number' },
        { label: t.pdf_items_label, role: 'description', type: 'string' },
        { label: t.pdf_quantity_label, role: 'quantity', type: 'number' },
        { label: t.pdf_price_label, role: 'unit_price', type: 'number' },
        ...(withDiscount ? [{ label: t.pdf_discount_label, role: null, type: 'string' }] : []),
        { label: t.pdf_tax_label ?? 'pdf_tax_label', role: null, type: 'number' },
        { label: t.pdf_amount_label, role: 'amount', type: 'number' },
      ];
      const rows = a.items.map(({ it, total, tax }, i) => [
        label(i + 1, String(i + 1)),
        itemLabel(it),
        label(it.qty, String(it.qty)),
        label(it.price, money(cents(it.price))),
        ...(withDiscount ? [label(`${it.discountPct}%`, `${it.discountPct}%`)] : []),
        label(tax / 100, money(tax)),
        label(total / 100, money(total)),
      ]);
      const items = rows.map((r) => ({
        description: r[1],
        quantity: label(r[2].value, String(r[2].value)),
        unit_price: r[3],
        amount: r[r.length - 1],
      }));
      return { html, fields, tables: [table('line items', columns, rows)], items };
    },
  };
}

export const CRATER_DESIGNS = ['invoice1', 'invoice2', 'invoice3'].map(design);
