// Siwapp (github:siwapp/siwapp-ror, MIT) print template: db/fixtures/print_default.html.erb, the design a new
// Siwapp installation seeds as its default print template. InvoicesController#print renders it with the locals
// `invoice` and `settings` (and @invoice); `display_money` (ApplicationHelper, number_to_currency using the money
// gem's currency table) and `format_address` (TemplatesHelper) are re-implemented in Ruby below. English only.
import { renderErb } from './render.mjs';
import { headerLabels, itemLabel, itemText, label, table, taxTotal } from './common.mjs';

export const SIWAPP = { repo: 'siwapp/siwapp-ror', commit: '83f887892a514731843afa736f38b993517f7400', licence: 'MIT' };

/** The money gem's symbol, symbol position, decimal mark and thousands separator of the currencies used here. */
const CURRENCY = { EUR: ['€', true, ',', '.'], USD: ['$', true, '.', ','], GBP: ['£', true, '.', ','] };

/** ApplicationHelper#display_money: number_to_currency with "%u %n" (symbol first) or "%n %u". */
export function displayMoney(amount, currency) {
  const [unit, first, sep, delim] = CURRENCY[currency];
  const [int, frac] = Math.abs(amount).toFixed(2).split('.');
  const n = `${int.replace(/\B(?=(\d{3})+(?!\d))/g, delim)}${sep}${frac}`;
  const s = first ? `${unit} ${n}` : `${n} ${unit}`;
  return amount < 0 ? `(${s})` : s;
}

const PRELUDE = `
CURRENCY = JSON.parse('${JSON.stringify(CURRENCY)}')
class SiwappView
  def initialize(ctx) @invoice = TplData.new(ctx['invoice']); @settings = TplData.new(ctx['settings']) end
  def invoice() @invoice end
  def settings() @settings end
  def format_address(address) address.gsub("\\r\\n", "<br>").gsub("\\n", "<br>") end
  def display_money(amount, currency)
    unit, first, sep, delim = CURRENCY.fetch(currency.upcase)
    int, frac = format('%.2f', amount.abs).split('.')
    n = int.reverse.scan(/\\d{1,3}/).join(delim).reverse + sep + frac
    s = first ? "#{unit} #{n}" : "#{n} #{unit}"
    amount.negative? ? "(#{s})" : s
  end
  def view_binding() binding end
end
def render_template(src, ctx) ERB.new(src).result(SiwappView.new(ctx).view_binding) end
`;

function context(inv) {
  const s = inv.seller,
    b = inv.buyer;
  const taxes = inv.taxes.map((t) => [`VAT ${t.rate}%`, t.amount]);
  const items = inv.items.map((it) => ({ description: itemText(it), base_amount: it.gross, discount: it.discountPct, net_amount: it.net }));
  const invoice = {
    to_s: inv.number,
    name: b.name,
    identification: b.vat_id,
    contact_person: b.contact,
    invoicing_address: `${b.street}\n${b.zip} ${b.city}`,
    email: b.email,
    issue_date: inv.date,
    due_date: inv.due,
    get_status: 'pending',
    gross_amount: inv.total,
    net_amount: inv.net,
    currency: inv.currency.toLowerCase(),
    items,
    have_items_discount: inv.items.some((it) => it.discountPct > 0),
    taxes,
    terms: inv.terms,
  };
  const settings = {
    company_name: s.name,
    company_vat_id: s.vat_id,
    company_address: `${s.street}\n${s.zip} ${s.city}`,
    company_email: s.email,
    company_url: s.www,
    company_logo: '',
  };
  return { invoice, settings };
}

const design = {
  program: 'Siwapp',
  source: 'siwapp',
  design: 'print-default',
  path: 'db/fixtures/print_default.html.erb',
  langs: ['en'],
  invoice: true,
  opts: { currencies: Object.keys(CURRENCY) },
  render(git, inv) {
    const html = renderErb(git.text(this.path), context(inv), PRELUDE);
    const money = (x) => displayMoney(x, inv.currency);
    const formats = { date: (d) => d, money, currency: inv.currency };
    const fields = headerLabels(
      inv,
      ['invoice_number', 'invoice_date', 'due_date', 'seller_name', 'buyer_name', 'currency', 'total_amount', 'net_amount', 'vat_id'],
      formats,
    );
    fields.tax_amount = taxTotal(
      inv.tax,
      inv.taxes.map((t) => t.amount),
      money,
    );
    const withDiscount = inv.items.some((it) => it.discountPct > 0);
    const columns = [
      { label: 'Description', role: 'description', type: 'string' },
      ...(withDiscount
        ? [
            { label: 'Price', role: null, type: 'number' },
            { label: 'Discount', role: null, type: 'string' },
          ]
        : []),
      { label: 'Total', role: 'amount', type: 'number' },
    ];
    const rows = inv.items.map((it) => [
      itemLabel(it),
      ...(withDiscount
        ? [label(it.gross, money(it.gross)), label(it.discountPct ? `${it.discountPct}%` : '', it.discountPct ? `${it.discountPct}%` : [])]
        : []),
      label(it.net, money(it.net)),
    ]);
    return { html, fields, tables: [table('line items', columns, rows)] };
  },
};

export const SIWAPP_DESIGNS = [design];
