// InvoicePlane (github:InvoicePlane/InvoicePlane, MIT) PDF invoice templates: application/views/invoice_templates/
// pdf/InvoicePlane.php and its "paid" and "overdue" variants (which set $invoice_mode and include it), plain PHP
// views run by Debian's php-cli. The program's own helper files are loaded (echo, number, date, client, country and
// pdf helpers: htmlsc, format_currency, date_from_mysql, format_client, get_country_name, the discount row); a
// stand-in for CodeIgniter's get_instance() answers their settings and the English ip_lang.php strings (the only
// language in the repository). The theme's templates.css is compiled from SCSS and not rebuilt here; the core
// custom-pdf.css is served to Chromium from a scratch folder (file:// base URL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderPhp } from './render.mjs';
import { headerLabels, label, table } from './common.mjs';
import { round2 } from './invented.mjs';

export const INVOICEPLANE = { repo: 'InvoicePlane/InvoicePlane', commit: '3879f70de2d01613d0befe814aa8db841f318114', licence: 'MIT' };
const VIEWS = 'application/views/invoice_templates/pdf';
/** Columns of the invoice view the invented data leaves empty (NULL in the database). */
const UNSET = [
  'client_tax_code',
  'client_address_2',
  'client_state',
  'user_tax_code',
  'user_address_2',
  'user_state',
  'user_fax',
  'user_company',
  'user_iban',
  'user_bic',
];
const HELPERS = ['echo', 'number', 'date', 'client', 'country', 'pdf'];
/** Amount settings a user picks per currency in InvoicePlane's system settings (symbol, placement, separators, date format). */
const SETTINGS = {
  GBP: { currency_symbol: '£', currency_symbol_placement: 'before', thousands_separator: ',', decimal_point: '.', date_format: 'd/m/Y' },
  USD: { currency_symbol: '$', currency_symbol_placement: 'before', thousands_separator: ',', decimal_point: '.', date_format: 'm/d/Y' },
  EUR: {
    currency_symbol: '€',
    currency_symbol_placement: 'afterspace',
    thousands_separator: '.',
    decimal_point: ',',
    date_format: 'd.m.Y',
  },
};

const SCRIPT = `
define('BASEPATH', __DIR__); define('APPPATH', __DIR__ . '/application/'); define('IP_DEBUG', false);
$S = (array) $ctx->settings;
function base_url() { global $ctx; return $ctx->base_url; }
function get_setting($key, $default = '', $escape = false) { global $S; return $S[$key] ?? $default; }
function trans($line, $id = '', $default = null) { global $lang; return $lang[$line] ?? ($default ?? $line); }
function invoice_logo_pdf() { return ''; }
final class TplSettings { public function setting($key) { return get_setting($key); } }
$CI = new stdClass(); $CI->mdl_settings = new TplSettings();
function &get_instance() { global $CI; return $CI; }
include APPPATH . 'language/english/ip_lang.php';
foreach (${JSON.stringify(HELPERS)} as $h) require APPPATH . "helpers/{$h}_helper.php";
$invoice = $ctx->invoice; $items = $ctx->items; $invoice_tax_rates = $ctx->invoice_tax_rates; $custom_fields = [];
$show_item_discounts = $ctx->show_item_discounts; $payment_method = null; $legacy_calculation = false;
include APPPATH . 'views/invoice_templates/pdf/' . $ctx->template;
`;

let assetDir;
/** The scratch folder Chromium reads the core stylesheet from (removed when the build ends). */
function assets(git) {
  if (assetDir) return assetDir;
  assetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-ip-assets-'));
  process.on('exit', () => fs.rmSync(assetDir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(assetDir, 'assets/core/css'), { recursive: true });
  fs.writeFileSync(path.join(assetDir, 'assets/core/css/custom-pdf.css'), git.text('assets/core/css/custom-pdf.css'));
  return assetDir;
}

/** InvoicePlane's item amounts: subtotal = qty × price, discount per item, item tax on the discounted amount. */
function amounts(inv) {
  const items = inv.items.map((it) => ({ it, tax: round2((it.net * it.taxRate) / 100) }));
  const net = round2(items.reduce((a, x) => a + x.it.net, 0));
  const tax = round2(items.reduce((a, x) => a + x.tax, 0));
  return { items, net, tax, total: round2(net + tax) };
}

/** number_helper.php's format_currency, for the labels' surface forms (two decimals). */
function formatCurrency(x, s) {
  const [int, frac] = Math.abs(x).toFixed(2).split('.');
  const n = `${x < 0 ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, s.thousands_separator)}${s.decimal_point}${frac}`;
  return s.currency_symbol_placement === 'before' ? `${s.currency_symbol}${n}` : `${n}\u00a0${s.currency_symbol}`;
}
const formatDate = (iso, fmt) => {
  const [y, m, d] = iso.split('-');
  return fmt.replace('d', d).replace('m', m).replace('Y', y);
};

function context(git, inv, mode, file) {
  const s = inv.seller,
    b = inv.buyer,
    a = amounts(inv);
  const paid = mode === 'paid' ? a.total : 0;
  const invoice = {
    invoice_id: 1,
    invoice_number: inv.number,
    invoice_date_created: inv.date,
    invoice_date_due: inv.due,
    invoice_item_subtotal: a.net,
    invoice_item_tax_total: a.tax,
    invoice_total: a.total,
    invoice_paid: paid,
    invoice_balance: round2(a.total - paid),
    invoice_discount_percent: '0.00',
    invoice_discount_amount: '0.00',
    invoice_terms: inv.terms,
    client_name: b.name,
    client_vat_id: b.vat_id,
    client_address_1: b.street,
    client_city: b.city,
    client_zip: b.zip,
    client_country: b.country,
    client_phone: b.phone,
    user_name: s.name,
    user_vat_id: s.vat_id,
    user_address_1: s.street,
    user_city: s.city,
    user_zip: s.zip,
    user_country: s.country,
    user_phone: s.phone,
    ...Object.fromEntries(UNSET.map((k) => [k, null])),
  };
  const items = a.items.map(({ it, tax }) => ({
    item_name: it.title,
    item_description: it.note,
    item_quantity: it.qty,
    item_product_unit: it.unit,
    item_price: it.price,
    item_discount: it.discount,
    item_total: round2(it.net + tax),
  }));
  const settings = {
    ...SETTINGS[inv.currency],
    tax_rate_decimal_places: 2,
    default_item_decimals: 2,
    qr_code: 0,
    system_theme: 'invoiceplane',
    current_version: '1.7',
  };
  return {
    invoice,
    items,
    invoice_tax_rates: [],
    show_item_discounts: inv.items.some((it) => it.discount > 0),
    settings,
    base_url: `file://${assets(git)}/`,
    template: file,
  };
}

function design(file, mode) {
  return {
    program: 'InvoicePlane',
    source: 'invoiceplane',
    design: mode ? `pdf-${mode}` : 'pdf',
    path: `${VIEWS}/${file}`,
    langs: ['en'],
    invoice: true,
    opts: { currencies: Object.keys(SETTINGS) },
    render(git, inv) {
      const ctx = context(git, inv, mode, file);
      const files = Object.fromEntries(
        [
          ...HELPERS.map((h) => [`application/helpers/${h}_helper.php`, `application/helpers/${h}_helper.php`]),
          ['application/helpers/country-list/en/country.php', 'application/helpers/country-list/en/country.php'],
          ['application/language/english/ip_lang.php', 'application/language/english/ip_lang.php'],
          [`${VIEWS}/InvoicePlane.php`, `${VIEWS}/InvoicePlane.php`],
          [`${VIEWS}/${file}`, `${VIEWS}/${file}`],
        ].map(([to, from]) => [to, git.text(from)]),
      );
      const html = renderPhp(SCRIPT, ctx, files);
      const s = SETTINGS[inv.currency],
        a = amounts(inv);
      const money = (x) => formatCurrency(x, s);
      const formats = { date: (d) => formatDate(d, s.date_format), money, currency: s.currency_symbol };
      const fields = {
        ...headerLabels(inv, ['invoice_number', 'invoice_date', 'due_date', 'seller_name', 'buyer_name', 'currency', 'vat_id'], formats),
        total_amount: label(a.total, money(a.total)),
        net_amount: label(a.net, money(a.net)),
        tax_amount: label(a.tax, money(a.tax)),
      };
      const withDiscount = ctx.show_item_discounts;
      const columns = [
        { label: 'Item', role: 'description', type: 'string' },
        { label: 'Description', role: null, type: 'string' },
        { label: 'Qty', role: 'quantity', type: 'number' },
        { label: 'Price', role: 'unit_price', type: 'number' },
        ...(withDiscount ? [{ label: 'Discount', role: null, type: 'number' }] : []),
        { label: 'Total', role: 'amount', type: 'number' },
      ];
      const qty = (q) => q.toFixed(2).replace('.', s.decimal_point);
      const rows = ctx.items.map((r) => [
        label(r.item_name, r.item_name),
        label(r.item_description, r.item_description),
        label(r.item_quantity, qty(r.item_quantity)),
        label(r.item_price, money(r.item_price)),
        ...(withDiscount ? [label(r.item_discount, money(r.item_discount))] : []),
        label(r.item_total, money(r.item_total)),
      ]);
      return { html, fields, tables: [table('line items', columns, rows)] };
    },
  };
}

export const INVOICEPLANE_DESIGNS = [
  design('InvoicePlane.php', null),
  design('InvoicePlane - paid.php', 'paid'),
  design('InvoicePlane - overdue.php', 'overdue'),
];
