// FOSSBilling (github:FOSSBilling/FOSSBilling, Apache-2.0) PDF invoice: src/modules/Invoice/templates/pdf/
// default-invoice.twig with its default-invoice.css. The context is what Invoice\Service::renderInvoicePdfContent
// passes (seller/buyer label maps, footer, invoice array); `format_currency`/`format_date` are Twig's intl
// extension (CLDR formats, as Intl here); `trans` is gettext with FOSSBilling's English source strings (en only).
import { renderTwig } from './render.mjs';
import { currencySurface, headerLabels, label, money, quantity, table } from './common.mjs';

export const FOSSBILLING = { repo: 'FOSSBilling/FOSSBilling', commit: '56a0871df1240dc1d0d12c1a278fbe3678821982', licence: 'Apache-2.0' };
const DIR = 'src/modules/Invoice/templates/pdf';
/** Twig intl's format_date default: the CLDR medium date. */
const mediumDate = (inv, iso) =>
  new Intl.DateTimeFormat(inv.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

function context(inv, css) {
  const s = inv.seller,
    b = inv.buyer;
  const seller = {
    Name: s.name,
    'Address 1': s.street,
    'Address 2': `${s.zip} ${s.city}`,
    Phone: s.phone,
    Email: s.email,
    'VAT Number': s.vat_id,
  };
  const buyer = {
    Company: b.name,
    Name: b.contact,
    Address: b.street,
    City: b.city,
    Zip: b.zip,
    Country: b.country,
    Phone: b.phone,
    ...(b.vat_id ? { 'VAT Number': b.vat_id } : {}),
  };
  const rate = inv.taxes[0]?.rate ?? 0;
  const invoice = {
    serie_nr: inv.number,
    created_at: inv.date,
    due_at: inv.due,
    status: 'unpaid',
    lines: inv.items.map((it) => ({ title: it.title, quantity: quantity(inv, it.qty), price: it.price, total: it.gross })),
    tax: inv.tax,
    taxname: 'VAT',
    taxrate: rate,
    discount: 0,
    total: inv.total,
    text_1: inv.terms,
    text_2: '',
  };
  const footer = {
    company_name: s.name,
    bank_name: inv.bank.name,
    account_number: inv.bank.iban,
    bic: inv.bank.bic,
    display_bank_info: 1,
    address_1: s.street,
    address_2: `${s.zip} ${s.city}`,
    address_3: '',
    email: s.email,
    phone: s.phone,
    company_vat: s.vat_id,
    company_number: '',
    www: s.www,
    signature: '',
  };
  return {
    currency_code: inv.currency,
    css,
    logo_source: '',
    seller,
    seller_lines: Object.keys(seller).length,
    footer,
    buyer,
    buyer_lines: Object.keys(buyer).length,
    invoice,
    locale: inv.locale.replace('-', '_'),
  };
}

const design = {
  program: 'FOSSBilling',
  source: 'fossbilling',
  design: 'default-invoice',
  path: `${DIR}/default-invoice.twig`,
  langs: ['en'],
  invoice: true,
  opts: { singleTax: true, noDiscount: true, noNotes: true },
  render(git, inv) {
    const ctx = context(inv, git.text(`${DIR}/default-invoice.css`));
    const html = renderTwig(git.text(this.path), ctx, {
      filters: {
        trans: (v) => String(v),
        format_date: (v) => mediumDate(inv, v),
        format_currency: (v, c) => money(inv, v, c),
        markdown_to_html: (v) => `<p>${v}</p>`,
      },
    });
    const formats = { date: (d) => mediumDate(inv, d), money: (x) => money(inv, x), currency: currencySurface(inv) };
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
        'tax_amount',
        'vat_id',
        'iban',
      ],
      formats,
    );
    const columns = [
      { label: '#', role: null, type: 'number' },
      { label: 'Product', role: 'description', type: 'string' },
      { label: 'Quantity & Price', role: null, type: 'string' },
      { label: 'Total', role: 'amount', type: 'number' },
    ];
    const rows = inv.items.map((it, i) => {
      const qp = `${quantity(inv, it.qty)}x ${money(inv, it.price)}`;
      return [label(i + 1, String(i + 1)), label(it.title, it.title), label(qp, qp), label(it.gross, money(inv, it.gross))];
    });
    // The quantity and the unit price share one cell ("3x $12.00"): line items take both from it.
    const items = inv.items.map((it, i) => ({
      description: rows[i][1],
      quantity: label(it.qty, rows[i][2].surface),
      unit_price: label(it.price, rows[i][2].surface),
      amount: rows[i][3],
    }));
    return { html, fields, tables: [table('line items', columns, rows)], items };
  },
};

export const FOSSBILLING_DESIGNS = [design];
