// SolidInvoice (github:SolidInvoice/SolidInvoice, MIT) PDF invoice: src/InvoiceBundle/Resources/views/Pdf/invoice.html.twig,
// rendered by Debian's php-twig (the npm port cannot parse its arrow-function filter). Its helpers reduced to data:
// `trans` reads the bundles' messages.en.yml (English only), `formatCurrency` prints the money object's CLDR form
// (moneyphp's IntlMoneyFormatter, locale en, here Intl), `setting`/`company_name`/`address` answer the company
// settings. The compiled SCSS bundle (`file(asset('static/pdf.css'))`) is not rebuilt: default styles; the mPDF
// header/footer tags are printed by Chromium in the page flow.
import YAML from 'yaml';
import { renderPhp, PHP_TWIG } from './render.mjs';
import { headerLabels, itemLabel, itemText, label, table } from './common.mjs';

export const SOLIDINVOICE = { repo: 'SolidInvoice/SolidInvoice', commit: '8662812b528963419e4b07841b61b81897adb0a0', licence: 'MIT' };
const BUNDLES = ['Core', 'Invoice', 'Tax'].map((b) => `src/${b}Bundle/Resources/translations/messages.en.yml`);
const LOCALE = 'en';

/** Nested YAML keys flattened with dots (Symfony's translation keys). */
function flatten(obj, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(obj ?? {})) {
    if (v && typeof v === 'object') flatten(v, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = String(v);
  }
  return out;
}

const formatMoney = (x, currency) => new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).format(x);
/** Twig's date filter: 'd F Y' and its default 'F j, Y'. */
const twigDate = (iso, long) => {
  const d = new Date(`${iso}T00:00:00Z`);
  const month = d.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return long
    ? `${String(d.getUTCDate()).padStart(2, '0')} ${month} ${d.getUTCFullYear()}`
    : `${month} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
};

const SCRIPT = `${PHP_TWIG}
eval('namespace SolidInvoice\\\\CoreBundle; final class SolidInvoiceCoreBundle { final public const APP_NAME = "SolidInvoice"; }');
$t = (array) $ctx->trans;
$settings = (array) $ctx->settings;
echo tpl_twig(file_get_contents('template.twig'), (array) $ctx->vars, [
  'trans' => fn ($k, $p = []) => strtr($t[$k] ?? $k, (array) $p),
  'formatCurrency' => fn ($money, $currency = null) => (string) $money->formatted,
], [
  'discount' => fn ($invoice) => null, 'file' => fn ($p) => '', 'asset' => fn ($p) => $p, 'app_logo' => fn () => '', 'invoice_label' => fn ($s) => '',
  'setting' => fn ($k, $default = null, $decode = false) => $settings[$k] ?? $default,
  'company_name' => fn () => $settings['system/company/company_name'],
  'address' => fn ($a) => implode("\\n", array_filter([$a->street1, trim($a->zip . ' ' . $a->city)])),
]);
`;

function context(git, inv) {
  const s = inv.seller,
    b = inv.buyer;
  const m = (x) => ({ formatted: formatMoney(x, inv.currency), positive: x > 0, zero: x === 0, to_s: String(x) });
  const items = inv.items.map((it) => ({
    description: itemText(it),
    price: m(it.price),
    qty: it.qty,
    tax: `VAT ${it.taxRate}%`,
    total: m(it.gross),
  }));
  const invoice = {
    invoiceId: inv.number,
    id: inv.number,
    status: 'pending',
    created: inv.date,
    due: inv.due,
    total: m(inv.total),
    baseTotal: m(inv.net),
    tax: m(inv.tax),
    balance: m(inv.total),
    discount: { type: null },
    payments: [],
    items,
    terms: inv.terms,
    client: { to_s: b.name, website: b.www, vatNumber: b.vat_id, addresses: [`${b.street}\n${b.zip} ${b.city}`] },
    users: [{ to_s: b.contact, email: b.email, additionalContactDetails: [] }],
  };
  const settings = {
    'system/company/company_name': s.name,
    'system/company/vat_number': s.vat_id,
    'system/company/contact_details/email': s.email,
    'system/company/contact_details/phone_number': s.phone,
    'system/company/contact_details/address': { street1: s.street, zip: s.zip, city: s.city },
    'invoice/watermark': false,
  };
  const trans = Object.assign({}, ...BUNDLES.map((p) => flatten(YAML.parse(git.text(p)))));
  return { vars: { invoice, app_version: '2.3.0-dev' }, settings, trans };
}

const design = {
  program: 'SolidInvoice',
  source: 'solidinvoice',
  design: 'pdf-invoice',
  path: 'src/InvoiceBundle/Resources/views/Pdf/invoice.html.twig',
  langs: ['en'],
  invoice: true,
  opts: { noDiscount: true },
  render(git, inv) {
    const html = renderPhp(SCRIPT, context(git, inv), { 'template.twig': git.text(this.path) });
    const money = (x) => formatMoney(x, inv.currency);
    const formats = { date: (d) => twigDate(d, d === inv.date), money, currency: formatMoney(1, inv.currency).replace(/[\d.,\s]/g, '') };
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
        'tax_amount',
        'vat_id',
      ],
      formats,
    );
    const columns = [
      { label: 'Description', role: 'description', type: 'string' },
      { label: 'Price', role: 'unit_price', type: 'number' },
      { label: 'Qty', role: 'quantity', type: 'number' },
      { label: 'Tax', role: null, type: 'string' },
      { label: 'Total', role: 'amount', type: 'number' },
    ];
    const rows = inv.items.map((it) => [
      itemLabel(it),
      label(it.price, money(it.price)),
      label(it.qty, String(it.qty)),
      label(`VAT ${it.taxRate}%`, `VAT ${it.taxRate}%`),
      label(it.gross, money(it.gross)),
    ]);
    return { html, fields, tables: [table('line items', columns, rows)] };
  },
};

export const SOLIDINVOICE_DESIGNS = [design];
