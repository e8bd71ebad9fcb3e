#!/usr/bin/env node
// Finds evaluation-corpus text copied into the product repository. The corpus licences (see
// ../shared/corpus/README.md) forbid shipping it, so shop names, addresses, invoice numbers, form
// answers and the like must not appear in comments, regex examples or tests.
//
//   npm run check:corpus-leak                          scan libs/ and apps/ (*.ts, *.md, *.json, *.mjs)
//   node tools/eval/corpus-leak.mjs docs README.md     scan the given files / folders instead
//   --corpus <dir>   the evaluation corpus (default ../shared/corpus beside the repo)
//   --wide <dir>     the wide sets (default env DOCKET_CORPUS_WIDE, else ../corpus-wide)
//   --ext ts,md      file endings to scan (default ts,md,json,mjs)
//   --available      check against the sets present; without it a missing corpus or wide set (datasets.mjs WIDE_SETS) fails (exit 2)
//
// Corpus text = every string in expected/*.json (recursively, table cells included), the
// per-document facts in manifest.json, the question labels in schemas/*.json, and the text of
// docs/*.pdf (pdftotext -layout, skipped when not installed) and docs/*.txt. Everything is
// normalised (NFKC, lower case, split into letter/digit runs, so punctuation and line wraps do
// not hide a match). A place in the repo is reported when it contains
//   (a) a whole expected value / manifest fact of >= 8 characters that has a letter and a digit
//       or >= 2 words, and at least one distinctive token; or
//   (b) a word 3-gram of the corpus text (within one line / layout cell) with a distinctive token,
//       or a word 2-gram whose two tokens are both distinctive (at least one a word).
// A token is distinctive unless it is generic: a stop word or generic invoice / receipt / form
// vocabulary (STOP below, en/de/fr/nl/ms), a word that occurs in >= 3 of the corpus's dataset
// families (so it is ordinary language, not a name), a short number, a year, an ordinal, an
// amount with a unit. Address words, proper names, postcodes and document numbers stay distinctive.
// Output: `file:line: fragment (dataset/doc)`, one line per hit, the fragment as it is written in
// the repo file and never more. Exit 1 when anything is found, 0 when clean.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../ci/cache.mjs';
import { WIDE_SETS } from './datasets.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const OPTS = ['--corpus', '--wide', '--ext'];
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith('--') && !OPTS.includes(args[i - 1]));
const corpusRoots = [
  resolve(repo, opt('--corpus') ?? '../shared/corpus'),
  resolve(repo, opt('--wide') ?? process.env.DOCKET_CORPUS_WIDE ?? '../corpus-wide'),
];
const exts = new Set((opt('--ext') ?? 'ts,md,json,mjs').split(',').map((e) => `.${e.replace(/^\./, '')}`));
const targets = positional.length ? positional.map((p) => resolve(p)) : [join(repo, 'libs'), join(repo, 'apps')];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.nx', 'tmp', '.data', '.git']);
const MANIFEST_PLUMBING = new Set(['id', 'doc', 'file', 'media_type', 'sha256', 'source', 'render_of']);

// Generic vocabulary: English function words and everyday words, and invoice / receipt / form
// words in the languages the engine reads (en, de, fr, nl, ms). Names, address words ("jalan",
// "taman", street names), places and numbers are deliberately NOT here.
const STOP = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can could did do does doing done down during each else even ever every few for from further had has have having he her here
  hers him his how however i if in into is it its itself just least less let like made make many may me might more most much
  must my neither no nor not now of off often on once one only or other others our ours out over own per please rather same
  shall she should since so some such than that the their theirs them then there these they this those though through thus
  to too under until up upon us very via was we were what when where whether which while who whom whose why will with within
  without would yet you your yours yes ok okay n/a na nil none
  new old first last next previous other another general main total full part small large high low good best better more less
  use used using see show shown given get got take taken give need needs needed based following follows include includes
  including included number numbers amount amounts value values date dates time times day days week weeks month months year
  years page pages line lines item items name names type types code codes list table tables column columns row rows field
  fields form forms data information info details detail document documents text note notes comment comments remark remarks
  section sections report reports summary description descriptions title subject reference ref refs no nr nbr num
  invoice invoices invoiced invoicing receipt receipts bill billed billing bills to ship shipped shipping delivery deliver
  delivered deliveries sold seller buyer customer customers client clients vendor vendors supplier suppliers purchaser
  order orders ordered purchase po quote quotation estimate statement credit debit memo
  due issue issued issuing payment payments paid pay payable terms term net gross subtotal sub grand tax taxes taxable vat gst
  sst hst pst tva mwst ust btw iva tin pan gstin cgst sgst igst excl excluding incl including inclusive exclusive
  price prices unit units qty quantity quantities rate rates discount discounts disc rounding round rounded adj adjustment
  adjustments charge charges fee fees service services cost costs shipping handling freight deposit balance outstanding
  cash change tendered card visa mastercard master amex debit credit tip tips cashier counter table pax guest guests
  tel telephone phone fax mobile email mail web website www http https com net org co ltd limited inc incorporated llc llp
  corp corporation company companies plc gmbh ag kg ohg ug ev sa sas sarl sàrl eurl bv nv vof sdn bhd berhad pte pvt private
  enterprise enterprises trading store shop shops restaurant cafe market mart supermarket hardware stationery pharmacy
  thank thanks you again come welcome visit goods returnable exchangeable exchanged refund refunds refundable valid
  address addresses street road avenue city state country zip postcode postal po box
  account accounts bank banks iban bic swift sort routing branch beneficiary transfer wire
  id identification registration reg registered gst vat number vatin siret siren rcs kvk ust-idnr steuernummer
  signature signed sign approved approval authorized authorised by manager supervisor department dept division group
  yes no n y m f male female mr mrs ms dr
  january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
  monday tuesday wednesday thursday friday saturday sunday today tomorrow yesterday am pm
  eur euro euros usd dollar dollars gbp pound pounds inr rupee rupees rs myr rm ringgit sen cent cents chf jpy yen cny
  kg g gr mg l ml cl lb lbs oz pc pcs pce piece pieces ea each box boxes pack packs set sets pair hr hrs hour hours min mins
  minute minutes sec km m cm mm x
  rechnung rechnungen rechnungsnummer rechnungsdatum datum betrag beträge summe gesamt gesamtbetrag zwischensumme netto brutto
  steuer steuern umsatzsteuer mehrwertsteuer kunde kunden kundennummer lieferant lieferung lieferdatum lieferschein menge
  einzelpreis preis preise position positionen artikel beschreibung bezeichnung zahlbar zahlung zahlungsziel fällig bis
  und oder der die das den dem des ein eine einer eines einem einen zu zum zur mit von vom für auf aus bei nach an im in ist
  sind wird werden nicht bitte vielen dank seite tage tagen innerhalb ohne abzug skonto bankverbindung konto gmbh straße str
  facture factures numéro numero date montant montants total totaux ht ttc tva client clients fournisseur quantité quantite
  prix unitaire désignation designation référence reference échéance echeance paiement règlement reglement de la le les des
  du et à a au aux en pour par sur dans avec sans est sont pas ne merci page jours net remise escompte avoir
  factuur factuurnummer factuurdatum datum bedrag totaal subtotaal btw klant leverancier aantal prijs omschrijving vervaldatum
  betaling het een van voor met op aan bij te dat dit is zijn niet dank u wel pagina dagen
  jumlah tarikh harga cukai resit terima kasih barang kuantiti bayaran tunai baki pelanggan kedai nombor sila datang lagi
  tidak boleh dan untuk dengan baru besar raya utama lama
  adresse livraison facturation facturé facturée titulaire compte bénéficiaire virement régler regler limite taux fois trois
  intérêt interet légal legal retard pénalités penalites conditions payer rue république republique commande bon
  lieferungen leistungen leistung sehr geehrte geehrter folgende berechnen ihnen wir ihr ihre unser unsere bestellung auftrag
  faktura nazwa towaru towar cena razem sprzedawca nabywca wystawienia sprzedaży sprzedazy ilość ilosc wartość wartosc
  netto brutto stawka kwota podatek zapłaty zaplaty termin płatności platnosci
  united kingdom states america europe european union germany france netherlands belgium austria switzerland italy spain
  poland denmark sweden norway finland ireland portugal greece malaysia singapore india china japan canada australia
  prijzen inclusief exclusief uw onze referentie nummer bestelling levering
  figures figure middle issuer opposed accounted rise asked quarter fraction latter carried half third fourth whole part parts share
  people person man men woman women child children family home house room office world country countries area areas
  region local national international public private social economic political government market business industry
  increase decrease growth level levels rate period periods percent percentage average median annual monthly daily
  early late recent recently current past future present former latter major minor key main central common usual
  usually often always never sometimes around about nearly almost approximately roughly across along among toward towards
  behind beside besides beyond inside outside near far away back front top bottom left right side sides begin began
  came come comes went go goes gone say says said tell told ask asks think thought know knew feel felt seem seems seemed
  keep kept leave left bring brought hold held stand stood turn turned move moved play run live lived believe happen
  happened provide provided consider considered appear appeared continue continued require required remain remained
  become became include lose lost pay paid meet met lead led understand understood speak spoke read write wrote learn
  change changed follow stop create spend spent grow grew open opened walk win won offer offered remember love loved
  buy bought wait serve served die died send sent expect build built stay fall fell cut reach kill killed raise raised
  pass passed sell sold decide decided return explain hope develop carry break broke receive agree support hit produce
  eat cover catch draw choose cause point listen realise realize place close involve involved`
    .split(/\s+/)
    .filter(Boolean),
);
// Standard legal and payment wording of invoices (words of set phrases, never names or numbers), as printed on
// e-invoices of every issuer: "Bitte überweisen Sie …", "Vielen Dank für Ihren Auftrag", "Der Betrag wurde bereits
// beglichen", "Nettobetrag, zzgl. 19 % USt.", "Sitz der Gesellschaft", "Kleinunternehmer gemäß § 19 UStG",
// "Reste à payer", "En cas de retard", "Datos del cliente". "Registered in England and Wales" is the UK company
// register's statutory wording: England and Wales are its jurisdictions, countries like those in STOP's country line.
const INVOICE_WORDING = `überweisen sie ihren wurde bereits nettobetrag zzgl zuzüglich sitz gesellschaft gemäß ustg
  reste cas datos del england wales`;
// Everyday words of technical prose (the papers in tables-wide) that common-words.txt lacks, and the OCR language
// codes the docs name (`eng+deu+fra+nld`).
const PROSE_WORDS = `gap validity outcome heading occurrence measured dataset eng deu fra nld`;
for (const w of `${INVOICE_WORDING} ${PROSE_WORDS}`.split(/\s+/).filter(Boolean)) STOP.add(w);
// Everyday English on top (common-words.txt, generated from package documentation, not from the corpus).
for (const w of readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'common-words.txt'), 'utf8').split('\n')) {
  if (w && !w.startsWith('#')) STOP.add(w.trim());
}

// Malay address vocabulary, states and their honorifics. Street words stay distinctive next to anything
// ("NO 4, JALAN"), as a street is usually named after them; the others (area, town, state words) only count next
// to a distinctive name or number, so "KAWASAN PERINDUSTRIAN", "SELANGOR DARUL EHSAN" are not fragments.
const STREET_VOCAB = new Set('jalan jln lorong lrg taman tmn'.split(' '));
const ADDRESS_VOCAB = new Set(
  `jalan jln lorong lrg taman tmn kawasan perindustrian industri bandar bdr kampung kpg persiaran seksyen wisma menara
  kompleks pusat desa bukit batu sungai kuala kota pekan darul ehsan takzim makmur aman naim ridzuan khusus wilayah
  persekutuan johor kedah kelantan melaka pahang perak perlis pulau pinang penang sabah sarawak selangor terengganu
  negeri sembilan labuan putrajaya lumpur`.split(/\s+/),
);
const weak = (t) => ADDRESS_VOCAB.has(t) && !STREET_VOCAB.has(t);

// ---------------------------------------------------------------------------------------------
// Normalising and tokenising

const norm = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const TOKEN = /[\p{L}\p{N}]+/gu;
const tokens = (s) => norm(s).match(TOKEN) ?? [];

let familyCount = new Map(); // alphabetic token -> number of dataset families it occurs in

function distinctive(t) {
  if (STOP.has(t)) return false;
  if (/^\d+$/.test(t)) return t.length >= 4 && !/^(19|20)\d\d$/.test(t) && !/^0+$/.test(t); // not a year, not 000
  if (/\d/.test(t)) {
    if (/^\d+(st|nd|rd|th|e|er|ème|x|kg|g|mg|ml|l|cl|pcs|pc|mm|cm|m|km|h|hr|hrs|min|s|ms|px|dpi|pt|kb|mb|gb|am|pm|%)$/.test(t))
      return false;
    return t.length >= 4;
  }
  if (t.length < 3) return false;
  return (familyCount.get(t) ?? 0) < 3;
}

// ---------------------------------------------------------------------------------------------
// Reading the corpus

/** @type {{dataset: string, doc: string, toks: string[]}[]} */
const values = []; // (a) candidates: whole expected values and manifest facts
/** @type {{dataset: string, doc: string, segs: string[][]}[]} */
const texts = []; // (b) sources: token runs (one per line / layout cell / value)

function stringsIn(v, out) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsIn(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => stringsIn(x, out));
  return out;
}

const readJson = (f) => {
  try {
    return JSON.parse(readFileSync(f, 'utf8'));
  } catch {
    return undefined;
  }
};

let pdftotext = existsSync('/usr/bin/pdftotext') ? '/usr/bin/pdftotext' : 'pdftotext';
const PDFTOTEXT_ARGS = ['-layout', '-q'];
/** pdftotext's text of each PDF, by path: extracted before the datasets are read (pdfTexts). */
const pdfTextOf = new Map();

/**
 * The text of every PDF in `files` into pdfTextOf, two pdftotext processes at a time. Kept in the cache folder
 * (tools/ci/cache.mjs, outside the repository) under the sha256 of the PDF's bytes, pdftotext's version and its
 * arguments: a PDF whose content changed is extracted again. Only pdftotext's own output is kept; everything this
 * script does to it (normalising, segments, n-grams) runs on every run.
 */
async function pdfTexts(files) {
  if (!files.length) return;
  let version;
  try {
    version = execFileSync(pdftotext, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    // poppler prints its version on stderr (and older ones exit 99)
    version = `${e.stdout ?? ''}${e.stderr ?? ''}`;
    if (e.code === 'ENOENT' || !version) {
      console.error('note: pdftotext is not installed; PDF text is skipped (expected values are still checked)');
      pdftotext = undefined;
      return;
    }
  }
  const dir = cacheDir('pdftotext');
  const key = (file) =>
    createHash('sha256')
      .update(`${PDFTOTEXT_ARGS.join(' ')}\n${version.trim()}\n`)
      .update(readFileSync(file))
      .digest('hex');
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const cached = join(dir, `${key(file)}.txt`);
      if (existsSync(cached)) {
        pdfTextOf.set(file, readFileSync(cached, 'utf8'));
        continue;
      }
      const text = await new Promise((done) =>
        execFile(pdftotext, [...PDFTOTEXT_ARGS, file, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }, (err, stdout) => {
          if (err) console.error(`note: pdftotext failed on ${file}; skipped`);
          done(err ? undefined : stdout);
        }),
      );
      if (text === undefined) continue;
      pdfTextOf.set(file, text);
      const tmp = `${cached}.${process.pid}.tmp`;
      writeFileSync(tmp, text);
      renameSync(tmp, cached);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(2, availableParallelism())) }, worker));
}

const segmentsOf = (text) =>
  text
    .split(/\r?\n/)
    .flatMap((line) => line.split(/\s{3,}|\t/))
    .map(tokens)
    .filter((t) => t.length);

function addValue(dataset, doc, s) {
  const n = norm(s);
  const toks = tokens(s);
  if (!toks.length) return;
  texts.push({ dataset, doc, segs: [toks] });
  const letterDigit = /\p{L}/u.test(n) && /\p{N}/u.test(n);
  if (n.length >= 8 && (letterDigit || n.split(' ').length >= 2)) values.push({ dataset, doc, toks });
}

function readDataset(dir) {
  const dataset = basename(dir);
  const expected = join(dir, 'expected');
  if (existsSync(expected)) {
    for (const f of readdirSync(expected).filter((f) => f.endsWith('.json'))) {
      const doc = f.replace(/\.json$/, '');
      for (const s of stringsIn(readJson(join(expected, f)), [])) addValue(dataset, doc, s);
    }
  }
  const manifest = readJson(join(dir, 'manifest.json'));
  for (const e of Array.isArray(manifest) ? manifest : []) {
    for (const [k, v] of Object.entries(e)) {
      if (!MANIFEST_PLUMBING.has(k)) for (const s of stringsIn(v, [])) addValue(dataset, String(e.id), s);
    }
  }
  const schemas = join(dir, 'schemas');
  if (existsSync(schemas)) {
    for (const f of readdirSync(schemas).filter((f) => f.endsWith('.json'))) {
      const fields = readJson(join(schemas, f))?.fields ?? [];
      const segs = fields.flatMap((fd) => [fd.label, fd.description].filter((s) => typeof s === 'string').map(tokens));
      texts.push({ dataset, doc: f.replace(/\.json$/, ''), segs });
    }
  }
  const docs = join(dir, 'docs');
  if (existsSync(docs)) {
    for (const f of readdirSync(docs)) {
      const ext = extname(f).toLowerCase();
      const text = ext === '.pdf' ? pdfTextOf.get(join(docs, f)) : ext === '.txt' ? readFileSync(join(docs, f), 'utf8') : undefined;
      if (text) texts.push({ dataset, doc: f.replace(/\.[^.]+$/, ''), segs: segmentsOf(text) });
    }
  }
}

const datasetDirs = corpusRoots
  .filter((root) => existsSync(root))
  .flatMap((root) => readdirSync(root).map((d) => join(root, d)))
  .filter((d) => statSync(d).isDirectory() && (existsSync(join(d, 'expected')) || existsSync(join(d, 'manifest.json'))));
await pdfTexts(
  datasetDirs.flatMap((d) => {
    const docs = join(d, 'docs');
    return existsSync(docs)
      ? readdirSync(docs)
          .filter((f) => extname(f).toLowerCase() === '.pdf')
          .map((f) => join(docs, f))
      : [];
  }),
);
let datasets = 0;
const found = new Set();
for (const d of datasetDirs) {
  readDataset(d);
  found.add(basename(d));
  datasets++;
}
// Every set it should check must be there: a missing one would let its text pass unseen. `--available` (npm test on a
// machine without the wide sets) checks what is present and says what it could not check.
const missing = [...(existsSync(corpusRoots[0]) ? [] : [corpusRoots[0]]), ...WIDE_SETS.filter((n) => !found.has(n))];
if (missing.length) {
  const say = `corpus-leak: not checked against ${missing.join(', ')} (absent; build the wide sets, see docs/quality.md)`;
  if (!args.includes('--available')) {
    console.error(`${say}. Run with --available to check only the sets present.`);
    process.exit(2);
  }
  console.error(`note: ${say}`);
}
if (!datasets) {
  console.error('note: no corpus dataset found; nothing to compare against');
  process.exit(0);
}

// Words used across >= 3 dataset families are ordinary language (sroie and sroie-wide are one family).
const family = (dataset) => dataset.replace(/-wide$/, '');
const seen = new Map();
for (const t of texts) {
  for (const seg of t.segs) {
    for (const tok of seg) {
      if (!/^\p{L}+$/u.test(tok)) continue;
      let s = seen.get(tok);
      if (!s) seen.set(tok, (s = new Set()));
      s.add(family(t.dataset));
    }
  }
}
familyCount = new Map([...seen].map(([k, v]) => [k, v.size]));

const grams = new Map(); // "a b c" -> "dataset/doc"
for (const t of texts) {
  for (const seg of t.segs) {
    for (let i = 0; i + 3 <= seg.length; i++) {
      const g = seg.slice(i, i + 3);
      if (g.every((x) => /^\d+$/.test(x))) continue; // a run of bare numbers (amounts, dates) is not text
      if (!g.some((x) => distinctive(x) && !weak(x))) continue;
      const key = g.join(' ');
      if (!grams.has(key)) grams.set(key, `${t.dataset}/${t.doc}`);
    }
    for (let i = 0; i + 2 <= seg.length; i++) {
      const g = seg.slice(i, i + 2);
      if (!g.every(distinctive) || !g.some((x) => /^\p{L}+$/u.test(x)) || g.every((x) => ADDRESS_VOCAB.has(x))) continue;
      const key = g.join(' ');
      if (!grams.has(key)) grams.set(key, `${t.dataset}/${t.doc}`);
    }
  }
}
const byHead = new Map(); // first token -> values starting with it
for (const v of values) {
  if (!v.toks.some(distinctive)) continue;
  const list = byHead.get(v.toks[0]) ?? [];
  list.push(v);
  byHead.set(v.toks[0], list);
}

// ---------------------------------------------------------------------------------------------
// Scanning the repo

function* walk(p) {
  if (!existsSync(p)) return;
  const st = statSync(p);
  if (st.isFile()) {
    if (exts.has(extname(p)) || positional.includes(p)) yield p;
    return;
  }
  for (const e of readdirSync(p)) if (!SKIP_DIRS.has(e)) yield* walk(join(p, e));
}

/** File text as tokens with their offsets; regex escapes (\s, \d, \b ...) and \n in strings are spaces. */
function fileTokens(src) {
  const text = src.normalize('NFKC');
  const out = [];
  for (const m of text
    .replace(/\\[sdwbnrtSDWB]/g, '  ')
    .toLowerCase()
    .matchAll(TOKEN))
    out.push({ t: m[0], at: m.index, end: m.index + m[0].length });
  return { text, toks: out };
}

let hits = 0;
const lineOf = (text, at) => text.slice(0, at).split('\n').length;
for (const target of targets) {
  for (const file of walk(target)) {
    if (file === fileURLToPath(import.meta.url)) continue;
    const { text, toks } = fileTokens(readFileSync(file, 'utf8'));
    const spans = []; // [start token, end token (exclusive), source]
    for (let i = 0; i < toks.length; i++) {
      for (const v of byHead.get(toks[i].t) ?? []) {
        if (v.toks.every((x, k) => toks[i + k]?.t === x)) spans.push([i, i + v.toks.length, `${v.dataset}/${v.doc}`]);
      }
      if (i + 2 <= toks.length) {
        const src = grams.get(`${toks[i].t} ${toks[i + 1].t}`);
        if (src) spans.push([i, i + 2, src]);
      }
      if (i + 3 <= toks.length) {
        const src = grams.get(`${toks[i].t} ${toks[i + 1].t} ${toks[i + 2].t}`);
        if (src) spans.push([i, i + 3, src]);
      }
    }
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const merged = [];
    for (const s of spans) {
      const last = merged[merged.length - 1];
      if (last && s[0] < last[1]) last[1] = Math.max(last[1], s[1]);
      else merged.push([...s]);
    }
    for (const [a, b, src] of merged) {
      let frag = text.slice(toks[a].at, toks[b - 1].end).replace(/\s+/g, ' ');
      if (frag.length > 160) frag = `${frag.slice(0, 157)}...`;
      console.log(`${relative(process.cwd(), file)}:${lineOf(text, toks[a].at)}: ${frag} (${src})`);
      hits++;
    }
  }
}
console.error(hits ? `${hits} corpus fragment(s) found` : 'clean: no corpus fragment found');
process.exit(hits ? 1 : 0);
