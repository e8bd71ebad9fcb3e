// Invented invoice data for build-invoices-templates.mjs: a seeded generator (mulberry32), names made of
// syllables, rich line items (article codes, note sub-lines, discounts, several tax rates, enough lines to run
// over pages). Nothing here comes from any corpus: every word list is generic vocabulary written for this file.
import { randomSource } from '../synth.common.mjs';

/** Deterministic draws (mulberry32): the generators' shared random source (synth.common.mjs), under this file's names. */
export function rng(seed) {
  const { rand, int, pick, chance } = randomSource(seed, []);
  return { next: rand, int, pick, chance };
}

const SYLLABLES = [
  'bra',
  'vel',
  'tor',
  'mi',
  'ka',
  'lun',
  'dor',
  'fe',
  'nix',
  'sal',
  'ro',
  'tan',
  'quel',
  'vi',
  'mar',
  'zen',
  'ol',
  'ber',
  'ta',
  'gri',
  'sto',
  'pel',
  'ux',
  'ard',
  'lio',
  'nem',
  'cas',
  'dru',
];
const word = (r, min = 2, max = 3) => {
  const n = r.int(min, max);
  let w = '';
  for (let i = 0; i < n; i++) w += r.pick(SYLLABLES);
  return w[0].toUpperCase() + w.slice(1);
};

/** Language packs: legal-form suffixes, street words, item vocabulary, units, locale. */
export const LANGS = {
  en: {
    locale: 'en-GB',
    forms: ['Ltd', 'LLP', 'Limited', '& Partners'],
    street: ['Road', 'Street', 'Lane', 'Way'],
    country: 'GB',
    nouns: [
      'Consulting',
      'Installation',
      'Maintenance contract',
      'Design workshop',
      'Cable set',
      'Server rack',
      'Licence renewal',
      'Support hours',
      'Training day',
      'Printer toner',
      'Site survey',
      'Hosting plan',
    ],
    notes: [
      'incl. travel within the city',
      'delivered to the second floor',
      'period as agreed in the order',
      'spare parts included',
      'remote session',
      'billed per started hour',
    ],
    units: ['pcs', 'h', 'day', 'month'],
    cities: ['Ashford', 'Brookvale', 'Carrow', 'Dunmere'],
  },
  de: {
    locale: 'de-DE',
    forms: ['GmbH', 'AG', 'KG', 'GmbH & Co. KG', 'e.K.'],
    street: ['straße', 'weg', 'allee', 'ring'],
    country: 'DE',
    nouns: [
      'Beratung',
      'Montage',
      'Wartungsvertrag',
      'Planungsworkshop',
      'Kabelsatz',
      'Serverschrank',
      'Lizenzverlängerung',
      'Supportstunden',
      'Schulungstag',
      'Tonerkartusche',
      'Vor-Ort-Termin',
      'Hosting-Paket',
    ],
    notes: [
      'inkl. Anfahrt im Stadtgebiet',
      'Lieferung frei Verwendungsstelle',
      'Zeitraum laut Auftrag',
      'inkl. Ersatzteile',
      'per Fernwartung',
      'Abrechnung je angefangene Stunde',
    ],
    units: ['Stk', 'Std', 'Tag', 'Monat'],
    cities: ['Ahrenfeld', 'Birkental', 'Coldenau', 'Dornstadt'],
  },
  fr: {
    locale: 'fr-FR',
    forms: ['SARL', 'SAS', 'SA', 'EURL'],
    street: ['rue', 'avenue', 'boulevard', 'chemin'],
    country: 'FR',
    nouns: [
      'Conseil',
      'Installation',
      'Contrat de maintenance',
      'Atelier de conception',
      'Jeu de câbles',
      'Baie serveur',
      'Renouvellement de licence',
      'Heures de support',
      'Journée de formation',
      'Cartouche de toner',
      'Visite sur site',
      'Offre hébergement',
    ],
    notes: [
      'déplacement en ville inclus',
      'livré au deuxième étage',
      'période selon commande',
      'pièces détachées incluses',
      'intervention à distance',
      'facturé par heure entamée',
    ],
    units: ['pce', 'h', 'jour', 'mois'],
    cities: ['Avrilly', 'Beaumesnil', 'Carentoir', 'Dampierre'],
  },
};
const TAX_RATES = { DE: [19, 7], FR: [20, 10, 5.5], GB: [20, 5], US: [8.25, 0] };
const CURRENCIES = { de: ['EUR', 'EUR', 'CHF'], fr: ['EUR'], en: ['GBP', 'USD', 'EUR'] };

export const round2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;

function party(r, L, { withVat }) {
  const name = `${word(r)} ${r.chance(0.4) ? word(r, 2, 2) + ' ' : ''}${r.pick(L.forms)}`;
  const streetWord = r.pick(L.street);
  const street =
    L === LANGS.fr
      ? `${r.int(1, 180)} ${streetWord} ${word(r)}`
      : L === LANGS.de
        ? `${word(r)}${streetWord} ${r.int(1, 180)}`
        : `${r.int(1, 180)} ${word(r)} ${streetWord}`;
  const zip =
    L === LANGS.en
      ? `${word(r, 1, 1).slice(0, 2).toUpperCase()}${r.int(1, 9)} ${r.int(1, 9)}${word(r, 1, 1).slice(0, 2).toUpperCase()}`
      : String(r.int(10000, 99999));
  const vat = withVat ? vatId(r, L.country) : '';
  const handle = name
    .toLowerCase()
    .replace(/[^a-z]+/g, '')
    .slice(0, 12);
  return {
    name,
    contact: `${word(r, 2, 2)} ${word(r, 2, 3)}`,
    street,
    zip,
    city: r.pick(L.cities),
    country: L.country,
    vat_id: vat,
    email: `info@${handle}.example`,
    phone: `+${r.int(30, 49)} ${r.int(100, 999)} ${r.int(100000, 999999)}`,
    www: `www.${handle}.example`,
    number: `K-${r.int(1000, 9999)}`,
  };
}
function vatId(r, country) {
  if (country === 'DE') return `DE${r.int(100000000, 999999999)}`;
  if (country === 'FR') return `FR${r.int(10, 99)}${r.int(100000000, 999999999)}`;
  return `GB${r.int(100000000, 999999999)}`;
}
/** A syntactically valid IBAN (mod-97 check digits) for an invented bank account. */
export function iban(r, country) {
  const len = { DE: 18, FR: 23, GB: 18 }[country] ?? 18;
  let bban = '';
  while (bban.length < len) bban += String(r.int(0, 9));
  const numeric = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const d of numeric) rem = (rem * 10 + Number(d)) % 97;
  return `${country}${String(98 - rem).padStart(2, '0')}${bban}`;
}
const isoDate = (d) => d.toISOString().slice(0, 10);

/**
 * One invented invoice. `opts.items` bounds the number of lines; `opts.singleTax` uses one rate for all lines;
 * `opts.currencies` narrows the currencies to those a design's formatter knows.
 */
export function invent(seed, lang, opts = {}) {
  const r = rng(seed);
  const L = LANGS[lang];
  const currency = opts.currency ?? r.pick(opts.currencies ?? CURRENCIES[lang]);
  const seller = party(r, L, { withVat: true });
  const buyer = party(r, L, { withVat: r.chance(0.5) });
  const issued = new Date(Date.UTC(r.int(2019, 2025), r.int(0, 11), r.int(1, 28)));
  const due = new Date(issued.getTime() + r.pick([7, 14, 30, 45]) * 86400000);
  const rates = opts.singleTax ? [TAX_RATES[L.country][0]] : TAX_RATES[L.country];
  const [lo, hi] = opts.items ?? [4, 28];
  const items = Array.from({ length: r.int(lo, hi) }, () => item(r, L, rates, opts));
  const net = round2(items.reduce((a, it) => a + it.net, 0));
  const taxes = rates
    .map((rate) => {
      const base = round2(items.filter((it) => it.taxRate === rate).reduce((a, it) => a + it.net, 0));
      return { rate, base, amount: round2((base * rate) / 100) };
    })
    .filter((t) => t.base > 0);
  const tax = round2(taxes.reduce((a, t) => a + t.amount, 0));
  const prefix = r.pick(['INV', 'RE', 'F', 'FA', '']);
  const number = `${prefix}${prefix ? '-' : ''}${issued.getUTCFullYear()}-${String(r.int(1, 9999)).padStart(4, '0')}`;
  return {
    seed,
    lang,
    locale: L.locale,
    currency,
    number,
    date: isoDate(issued),
    due: isoDate(due),
    seller,
    buyer,
    bank: {
      iban: iban(r, L.country),
      bic: `${word(r, 2, 2).toUpperCase().slice(0, 4)}${L.country}${r.int(10, 99)}XXX`,
      name: `${word(r)} Bank`,
    },
    items,
    net,
    taxes,
    tax,
    total: round2(net + tax),
    terms: r.pick(L.notes),
  };
}

function item(r, L, rates, opts) {
  const unit = r.pick(L.units);
  const qty = unit === 'h' || unit === 'Std' ? r.int(1, 40) / 2 : r.int(1, 25);
  const price = round2(10 ** (0.3 + r.next() * 3)); // 2 to 2,000 per unit, log-uniform
  const discountPct = !opts.noDiscount && r.chance(0.25) ? r.pick([5, 10, 15, 20]) : 0;
  const gross = round2(qty * price);
  const discount = round2((gross * discountPct) / 100);
  return {
    code: `${word(r, 1, 1).slice(0, 2).toUpperCase()}-${r.int(1000, 99999)}`,
    title: `${r.pick(L.nouns)} ${word(r, 2, 2)}`,
    note: !opts.noNotes && r.chance(0.5) ? r.pick(L.notes) : '',
    qty,
    unit,
    price,
    discountPct,
    discount,
    gross,
    net: round2(gross - discount),
    taxRate: r.pick(rates),
  };
}
