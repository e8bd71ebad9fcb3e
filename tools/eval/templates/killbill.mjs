// Kill Bill (github:killbill/killbill, Apache-2.0) HTML invoice: util/src/main/resources/org/killbill/billing/
// util/invoice/templates/HtmlInvoiceTemplate.mustache. `text` is Kill Bill's InvoiceTranslation_en_US.properties
// with the tenant's company lines replaced by the invented seller (a tenant overrides them in Kill Bill);
// `invoice`/`account` are the formatted invoice and account objects its HtmlInvoiceGenerator passes.
import { renderMustache } from './render.mjs';
import { addDays, currencySurface, headerLabels, label, money, table } from './common.mjs';

export const KILLBILL = { repo: 'killbill/killbill', commit: 'cb60779c171391be558cd7aebb1eafea60ad2b82', licence: 'Apache-2.0' };
const BASE = 'util/src/main/resources/org/killbill/billing/util/invoice';
/** Kill Bill formats dates with the account locale's medium style (Joda), here CLDR via Intl. */
const mediumDate = (inv, iso) =>
  new Intl.DateTimeFormat(inv.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

function properties(text) {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Za-z]\w*=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

const design = {
  program: 'Kill Bill',
  source: 'killbill',
  design: 'html-invoice',
  path: `${BASE}/templates/HtmlInvoiceTemplate.mustache`,
  langs: ['en'],
  invoice: true,
  opts: { noDiscount: true, noNotes: true, items: [3, 30] },
  render(git, inv) {
    const s = inv.seller,
      b = inv.buyer;
    const text = {
      ...properties(git.text(`${BASE}/translation/InvoiceTranslation_en_US.properties`)),
      companyName: s.name,
      companyAddress: s.street,
      companyCityProvincePostalCode: `${s.city} ${s.zip}`,
      companyCountry: s.country,
      properties: {},
    };
    const number = String(Number.parseInt(inv.number.replace(/\D/g, '').slice(-6), 10));
    const items = inv.items.map((it, i) => {
      const start = addDays(inv.date, -30 * ((i % 3) + 1));
      return {
        formattedStartDate: mediumDate(inv, start),
        formattedEndDate: mediumDate(inv, addDays(start, 30)),
        prettyPlanName: it.title,
        formattedAmount: money(inv, it.gross),
      };
    });
    const invoice = {
      invoiceNumber: number,
      formattedInvoiceDate: mediumDate(inv, inv.date),
      invoiceItems: items,
      formattedChargedAmount: money(inv, inv.net),
      formattedPaidAmount: money(inv, 0),
      formattedBalance: money(inv, inv.net),
    };
    const account = { name: b.contact, companyName: b.name, address1: b.street, city: b.city, postalCode: b.zip, country: b.country };
    const html = renderMustache(git.text(this.path), { text, invoice, account });
    const formats = { date: (d) => mediumDate(inv, d), money: (x) => money(inv, x), currency: currencySurface(inv) };
    const fields = {
      ...headerLabels(inv, ['invoice_date', 'seller_name', 'buyer_name', 'currency', 'total_amount'], formats),
      invoice_number: label(number, `INV#${number}`),
      total_amount: label(inv.net, money(inv, inv.net)),
    }; // no tax in this template: total = sum of items
    const columns = [
      { label: text.invoiceItemServicePeriod, role: null, type: 'string' },
      { label: text.invoiceItemDescription, role: 'description', type: 'string' },
      { label: text.invoiceItemAmount, role: 'amount', type: 'number' },
    ];
    const rows = inv.items.map((it, i) => {
      const period = `${items[i].formattedStartDate} - ${items[i].formattedEndDate}`;
      return [label(period, period), label(it.title, it.title), label(it.gross, items[i].formattedAmount)];
    });
    return { html, fields, tables: [table('line items', columns, rows)] };
  },
};

export const KILLBILL_DESIGNS = [design];
