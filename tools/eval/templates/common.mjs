// Shared pieces of the template designs: locale formatting of the invented data (what each program's own
// formatters do), candidate labels, and the line-item table description every design returns.

/** Money as the program's locale formatter prints it (Intl, the same CLDR data PHP's intl uses). */
export const money = (inv, x, currency = inv.currency) => new Intl.NumberFormat(inv.locale, { style: 'currency', currency }).format(x);
/** A plain decimal in the invoice's locale: 2 decimals, or `digits`. */
export const decimal = (inv, x, digits = 2) =>
  new Intl.NumberFormat(inv.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
/** A quantity: integers without decimals, halves with their decimal. */
export const quantity = (inv, x) => new Intl.NumberFormat(inv.locale, { maximumFractionDigits: 2 }).format(x);
/** A date in the locale's short numeric form (dd.mm.yyyy, dd/mm/yyyy, …). */
export const shortDate = (inv, iso) =>
  new Intl.DateTimeFormat(inv.locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
export const addDays = (iso, n) => new Date(new Date(`${iso}T00:00:00Z`).getTime() + n * 86400000).toISOString().slice(0, 10);
export const countryName = (code, lang) => new Intl.DisplayNames([lang], { type: 'region' }).of(code);

/** The description cell of an item: its title and, when it has one, its note sub-line. */
export const itemText = (it, sep = '\n') => (it.note ? `${it.title}${sep}${it.note}` : it.title);
/** A label candidate: the value for expected/ and the surface form the template prints. */
export const label = (value, surface) => ({ value, surface: Array.isArray(surface) ? surface : String(surface) });
/** The description cell's label: value joined with spaces, checked line by line. */
export const itemLabel = (it) => label(itemText(it, ' '), it.note ? [it.title, it.note] : [it.title]);

/**
 * Header labels every invoice design can print. `shown` lists the keys the design prints; `formats` gives the
 * design's own surface forms for the dates and amounts.
 */
export function headerLabels(inv, shown, formats) {
  const all = {
    invoice_number: label(inv.number, inv.number),
    invoice_date: label(inv.date, formats.date(inv.date)),
    due_date: label(inv.due, formats.date(inv.due)),
    seller_name: label(inv.seller.name, inv.seller.name),
    buyer_name: label(inv.buyer.name, inv.buyer.name),
    currency: label(inv.currency, formats.currency ?? inv.currency),
    total_amount: label(inv.total, formats.money(inv.total)),
    net_amount: label(inv.net, formats.money(inv.net)),
    tax_amount: taxTotal(inv.tax, inv.taxes?.map((t) => t.amount) ?? [], formats.money),
    vat_id: label(inv.seller.vat_id, inv.seller.vat_id),
    iban: label(inv.bank.iban, inv.bank.iban),
  };
  return Object.fromEntries(shown.map((k) => [k, all[k]]));
}

/**
 * The invoice's total tax (EN 16931 BT-110, what the e-invoice half of invoices-wide labels from its XML): printed as
 * one figure on a one-rate invoice; on a multi-rate one either as that one figure too, or as the per-rate tax lines
 * that add up to it — labelled only when every one of them is printed (`printed` takes an array surface as "all of
 * these", and `{ anyOf }` as "one of these").
 */
export const taxTotal = (total, perRate, fmt) =>
  perRate.length > 1 ? { value: total, surface: { anyOf: [perRate.map(fmt), fmt(total)] } } : label(total, fmt(total));

/** The currency as the money formatter shows it (a symbol or the ISO code), for the visibility check. */
export const currencySurface = (inv) => money(inv, 1).replace(/[\d.,\s\u00a0\u202f]/g, '') || inv.currency;

/**
 * A table description: `columns` are { label (header cell as printed), role (description|quantity|unit_price|
 * amount|null), type (string|number) }, `rows` arrays of label() cells in column order.
 */
export const table = (title, columns, rows) => ({ title, columns, rows });
