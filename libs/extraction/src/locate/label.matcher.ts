import { allPacksVocabulary, labelWords } from '../locales/locale.registry.js';

/**
 * Fuzzy label matching. Labels and document text are reduced to "concepts": lower-cased, accent-free
 * tokens where abbreviations and the invoice vocabulary of the locale packs map to one canonical word
 * (`No.`, `#`, `Nr`, `Nummer`, `N°` → number). German compounds (`Rechnungsnummer`) are split into
 * known parts. Generic words weigh less so that `Date:` matches "Invoice date" but not "Due date".
 */
// The concepts, in precedence order: a word listed for two concepts keeps the earlier one. Their words in each
// language live in the locale packs (locales/<id>.json, `labels`).
const CONCEPTS = [
  'number',
  'invoice',
  'date',
  'due',
  'total',
  'net',
  'tax',
  'amount',
  'seller',
  'buyer',
  'quantity',
  'price',
  'unit',
  'description',
  'company',
  'address',
  'phone',
  'currency',
  'id',
  'name',
  'order',
  'customer',
  'line',
  'delivery',
  'payment',
  'discount',
  // (Another document the invoice refers to: labels naming the preceding or associated invoice's date or number.)
  'reference',
];
const WORDS = labelWords();
// Label matching understands every shipped language at once: the phrase lists of all packs.
const VOCAB = allPacksVocabulary();
const SYNONYMS: Record<string, string[]> = Object.fromEntries(CONCEPTS.map((c) => [c, WORDS.get(c) ?? []]));

const CANON = new Map<string, string>();
for (const [canon, list] of Object.entries(SYNONYMS)) {
  // (A concept's own name listed earlier as another concept's synonym keeps that meaning: "customer" is a buyer,
  // while "Kunden-Nr." still reduces to the customer concept.)
  if (!CANON.has(canon)) CANON.set(canon, canon);
  for (const w of list) if (!CANON.has(w)) CANON.set(w, canon);
}

/** Words that say what kind of value follows rather than which one: matched with a lower weight. */
// (The words of no weight, articles and prepositions, are the packs' `labelFillers`.)
const GENERIC: Record<string, number> = {
  name: 0.3,
  amount: 0.4,
  number: 0.6,
  id: 0.6,
  date: 0.6,
  invoice: 0.3,
  document: 0.3,
  ...Object.fromEntries([...VOCAB.labelFillers].map((w) => [w, 0])),
};

export function weightOf(concept: string): number {
  return GENERIC[concept] ?? 1;
}

/** Folded forms of the strings seen lately: the locators fold the same words many times per document. */
const FOLD_CACHE_MAX = 20_000;
const foldCache = new Map<string, string>();

/** Lower case without accents (ß → ss, ł → l, ø → o, đ → d): the form labels and words are compared in. */
export function fold(s: string): string {
  let f = foldCache.get(s);
  if (f === undefined) {
    if (foldCache.size >= FOLD_CACHE_MAX) foldCache.clear();
    foldCache.set(s, (f = foldUncached(s)));
  }
  return f;
}

function foldUncached(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/ß/g, 'ss')
      // Letters NFKD does not decompose: Polish/Scandinavian barred and slashed letters.
      .replace(/ł/g, 'l')
      .replace(/ø/g, 'o')
      .replace(/đ/g, 'd')
  );
}

// The multi-word phrases that `tokens` reduces to one concept ("Bill to", "Net à payer", "excl. VAT") are the packs'
// `phrases`, `accentedPhrases`, `excluding` / `including` + `taxWords`; `phraseHeads` their first words.
const {
  phrases: PHRASES,
  phraseHead: PHRASE_HEAD,
  netPhrase: NET,
  grossPhrase: GROSS,
  addresseeCell: ADDRESSEE_CELL,
  addresseeHeading: ADDRESSEE_HEADING,
} = VOCAB;

/** Splits text into raw tokens (keeping `#` and `°` as their own tokens: they mean "number"). */
export function tokens(s: string): string[] {
  // Phrases whose accents matter ("Facturé à" names the addressee, "Facture à régler" is a sentence), and the
  // Czech/Slovak number sign "č." (číslo): "Faktura č. 2025031".
  let low = s.toLowerCase();
  for (const [re, to] of PHRASES.accented) low = low.replace(re, to);
  let f = fold(low);
  // Addressee phrases name the buyer whatever verb they use ("Bill to", "Invoice to", "Ship to", "Rechnung an"), and so
  // do the addresses printed for them ("Delivery address"); "Net à payer" is the total, "Faktura VAT" an invoice …
  for (const [re, to] of PHRASES.folded) f = f.replace(re, to);
  f = f
    // "excl. VAT" / "hors taxes" name the net amount, "incl. VAT" / "TTC" the gross total.
    .replace(NET, ' net ')
    .replace(GROSS, ' total ')
    .replace(/n[°º]/g, ' # ')
    .replace(/[°º]/g, ' ')
    // Initials with their dots are one word: "P.U." (prix unitaire) is "pu", "T.V.A." is "tva".
    .replace(/(?<![a-z])(?:[a-z]\.){2,}/g, (m) => ` ${m.replace(/\./g, '')} `);
  return f.match(/#|[\p{L}\p{N}]+/gu) ?? [];
}

/** Canonical concept(s) for one token: German compounds may give two. */
export function conceptsOf(tok: string): string[] {
  const c = CANON.get(tok);
  if (c) return [c];
  if (tok.length >= 7) {
    for (let i = 3; i <= tok.length - 3; i++) {
      const a = tok.slice(0, i);
      let b = tok.slice(i);
      const ca = CANON.get(a) ?? CANON.get(a.replace(/s$/, ''));
      if (!ca) continue;
      let cb = CANON.get(b);
      if (!cb && b.startsWith('s')) cb = CANON.get((b = b.slice(1)));
      if (cb) return [ca, cb];
    }
  }
  // Short compounds ending in an identifier word: "UStId", "VATno", "BTWnr".
  const idTail = /^(.{3,})(id|nr|no)$/.exec(tok);
  if (idTail && CANON.has(idTail[1]!)) return [CANON.get(idTail[1]!)!, CANON.get(idTail[2]!)!];
  // Plurals: "totals", "items", "dates".
  if (tok.length > 3 && tok.endsWith('s') && CANON.has(tok.slice(0, -1))) return [CANON.get(tok.slice(0, -1))!];
  return [tok];
}

// Every field is matched against every line, so the same words are reduced over and over: memoise.
const conceptCache = new Map<string, string[]>();
export function conceptTokens(s: string): string[] {
  let c = conceptCache.get(s);
  if (!c) {
    if (conceptCache.size > 50_000) conceptCache.clear();
    c = tokens(s).flatMap(conceptsOf);
    conceptCache.set(s, c);
  }
  return c;
}

/** Concepts per label variant beyond which a variant's near-word answers start afresh. */
const NEAR_CACHE_MAX = 5_000;
// Every header and label test asks which concept of a variant a word's concept is near: the same few variants against
// the same words, page after page. Memoised per variant array (the answer depends only on the two strings).
const nearCache = new WeakMap<readonly string[], Map<string, string | null>>();

/** The first concept of `variant` within one edit of `c` (`nearWord`), or undefined. */
function nearIn(variant: readonly string[], c: string): string | undefined {
  let byWord = nearCache.get(variant);
  if (!byWord) nearCache.set(variant, (byWord = new Map()));
  let v = byWord.get(c);
  if (v === undefined) {
    if (byWord.size >= NEAR_CACHE_MAX) byWord.clear();
    byWord.set(c, (v = variant.find((x) => nearWord(x, c)) ?? null));
  }
  return v ?? undefined;
}

/** Edit distance ≤ 1 for longer words (OCR noise); exact for short ones. */
function nearWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 5 || b.length < 5 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i) || a.slice(i) === b.slice(i + 1);
}

export interface LabelSpec {
  /** Alternative phrasings, each a list of concepts (label, key words). */
  variants: string[][];
}

export function labelSpec(label: string | undefined, key: string): LabelSpec {
  const variants: string[][] = [];
  if (label) variants.push(conceptTokens(label));
  const fromKey = conceptTokens(key.replace(/_/g, ' '));
  if (!variants.some((v) => v.join(' ') === fromKey.join(' '))) variants.push(fromKey);
  return { variants: variants.filter((v) => v.length > 0) };
}

export interface SpanMatch {
  /** Index of the first and one past the last matched word. */
  start: number;
  end: number;
  score: number;
}

/**
 * Best span of `words` (concept lists per document word) matching the label: score = weighted share of
 * label concepts found × share of span words that belong to the label.
 */
export function matchSpan(words: string[][], spec: LabelSpec, exact = false): SpanMatch | undefined {
  // (Text read from a PDF's text layer is spelled as printed: only OCR needs the one-letter tolerance, which on
  // clean text turns names into labels, "Keller GmbH" into "Seller".)
  let best: SpanMatch | undefined;
  for (const variant of spec.variants) {
    const total = variant.reduce((s, c) => s + weightOf(c), 0);
    if (total <= 0) continue;
    // The variant's concept a word's concept stands for (exact, or within one edit).
    const match = exact ? (c: string) => (variant.includes(c) ? c : undefined) : (c: string) => nearIn(variant, c);
    for (let i = 0; i < words.length; i++) {
      if (!words[i]!.some((c) => match(c) !== undefined)) continue;
      const found = new Set<string>();
      let extra = 0;
      for (let j = i; j < Math.min(words.length, i + variant.length + 3); j++) {
        const w = words[j]!;
        const hits = w.filter((c) => match(c) !== undefined);
        if (hits.length === 0) {
          if (w.every((c) => weightOf(c) === 0)) continue;
          extra++;
          if (extra > 1) break;
          continue;
        }
        for (const h of hits) found.add(match(h)!);
        const got = [...found].reduce((s, c) => s + weightOf(c), 0);
        const spanLen = j - i + 1;
        const precision = (spanLen - extra) / spanLen;
        const score = (got / total) * (0.85 + 0.15 * precision);
        if (!best || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && j + 1 - i < best.end - best.start))
          best = { start: i, end: j + 1, score };
      }
    }
  }
  return best;
}

/** Every tight span (first and last word match the label) scoring at least `min`; used for table headers. */
export function allSpans(words: string[][], spec: LabelSpec, min = 0.5): SpanMatch[] {
  const out: SpanMatch[] = [];
  for (const variant of spec.variants) {
    const total = variant.reduce((s, c) => s + weightOf(c), 0);
    if (total <= 0) continue;
    const hit = (w: string[]) => w.filter((c) => nearIn(variant, c) !== undefined);
    for (let i = 0; i < words.length; i++) {
      if (!hit(words[i]!).length) continue;
      const found = new Set<string>();
      let extra = 0;
      for (let j = i; j < Math.min(words.length, i + variant.length + 2); j++) {
        const hits = hit(words[j]!);
        if (!hits.length) {
          extra++;
          continue;
        }
        for (const h of hits) found.add(nearIn(variant, h)!);
        const got = [...found].reduce((s, c) => s + weightOf(c), 0);
        const score = (got / total) * (1 - 0.1 * extra);
        if (score >= min) out.push({ start: i, end: j + 1, score });
      }
    }
  }
  return out;
}

/** True for a canonical concept of the vocabulary (net, tax, due …), as opposed to an arbitrary word. */
export function isKnownConcept(c: string): boolean {
  return c in SYNONYMS;
}

/**
 * Concepts per word of a line, with two- and three-word phrases ("Bill to", "excl. VAT", "incl. of GST")
 * resolved: the phrase's concept goes to its first word and the others become empty (ignored) words.
 */
const wordCache = new Map<string, string[][]>();
const lineCache = new WeakMap<object, string[][]>();

/** `wordConcepts` of a line's words, memoised per line object (every field and header test asks again). */
export function lineConcepts(line: { words: readonly { text: string }[] }): string[][] {
  let c = lineCache.get(line);
  if (!c) lineCache.set(line, (c = wordConcepts(line.words.map((w) => w.text))));
  return c;
}

/** A sender's heading word ("From", "Von", "De"): the packs' `partyPrefixes`, alone. */
function isSenderHeading(w: string): boolean {
  return `${w.replace(/:$/, '')} x`.replace(VOCAB.party.partyPrefix, '') === 'x';
}

export function wordConcepts(words: string[]): string[][] {
  const key = words.join('\u0001');
  const hit = wordCache.get(key);
  if (hit) return hit;
  if (wordCache.size > 20_000) wordCache.clear();
  // "To:" alone as a cell's label introduces the addressee ("From: ‖ To:"); "to" elsewhere is a mere word.
  // (So does "To" on a line of block headings only, "To" or "To ‖ From"; "From" there heads the sender's block.)
  const headings = words.length <= 2 && words.every((w) => ADDRESSEE_HEADING.test(w) || isSenderHeading(w));
  const out = words.map((w) =>
    ADDRESSEE_CELL.test(w) || (headings && ADDRESSEE_HEADING.test(w))
      ? ['buyer']
      : headings && isSenderHeading(w)
        ? ['seller']
        : [...conceptTokens(w)],
  );
  wordCache.set(key, out);
  for (let i = 0; i < words.length - 1; i++) {
    // Only a phrase head (or a bare punctuation word before one) can start a phrase: skip the rest cheaply.
    const head = fold(words[i]!);
    if (!PHRASE_HEAD.test(head) && /[\p{L}\p{N}]/u.test(head)) continue;
    for (const n of [3, 2]) {
      if (i + n > words.length) continue;
      const phrase = conceptTokens(words.slice(i, i + n).join(' '));
      const separate = out.slice(i, i + n).flat();
      if (phrase.length === 1 && separate.length >= 2 && ['net', 'total', 'buyer', 'seller', 'due', 'invoice'].includes(phrase[0]!)) {
        out[i] = phrase;
        for (let k = i + 1; k < i + n; k++) out[k] = [];
        break;
      }
    }
  }
  return out;
}
