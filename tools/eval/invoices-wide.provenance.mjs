// PROVENANCE.md block of the e-invoice half of invoices-wide, written by build-invoices-wide.mjs between its own
// markers, so the template builder's block in the same file is kept.
import fs from 'node:fs';
import path from 'node:path';
import { SOURCES } from './invoices-wide.sources.mjs';

const BEGIN = '<!-- build-invoices-wide.mjs: begin -->',
  END = '<!-- build-invoices-wide.mjs: end -->';
const HEAD =
  '# invoices-wide: wide invoice development set (issue 19)\n\nInternal evaluation only: never copy these files into the product repository, never ship them.\n';
const count = (xs) => {
  const m = new Map();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]);
};
const cell = (s) => String(s).replace(/\|/g, '\\|');

function sourcesTable(docs) {
  const rows = Object.entries(SOURCES).map(
    ([k, s]) =>
      `| \`${k}\` | [${s.repo}](https://github.com/${s.repo}) | \`${s.commit}\` | ${s.lang} | ${s.licence} | ${s.include.map((p) => `\`${p}\``).join(', ')} | ${docs.filter((d) => d.source === k).length} |`,
  );
  return [
    '| key | repository | commit | library language | licence | folders read | documents |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
function documentsTable(docs) {
  const rows = docs.map(
    (d) =>
      `| ${d.id} | ${d.layout} | ${cell(d.program)} | ${d.language} | ${cell(d.inv.profile)} | ${Object.keys(d.labels.expected).length} | ${d.labels.expected.line_items?.length ?? 0} |`,
  );
  return ['| id | layout | program | lang | XML profile | fields | rows |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}
function dropsTable(docs) {
  const rows = docs.flatMap((d) => d.labels.drops.map(([k, action, why]) => `| ${d.id} | ${k} | ${action} | ${why} |`));
  return ['| id | field | action | why |', '|---|---|---|---|', ...rows].join('\n');
}
function skippedTable(log) {
  return ['| source | path | why left out |', '|---|---|---|', ...log.map(([k, p, why]) => `| ${k} | \`${cell(p)}\` | ${why} |`)].join(
    '\n',
  );
}

function block(docs, ctx) {
  const fields = docs.reduce((n, d) => n + Object.keys(d.labels.expected).filter((k) => k !== 'line_items').length, 0);
  const cells = docs.reduce((n, d) => n + (d.labels.expected.line_items ?? []).reduce((m, r) => m + Object.keys(r).length, 0), 0);
  return `${BEGIN}
## E-invoice PDFs (\`einv-*\`, built by \`tools/eval/build-invoices-wide.mjs\`)

**${docs.length} documents** (${ctx.candidates} readable hybrid PDFs found, ${ctx.families} page-layout families), **${new Set(docs.map((d) => d.program)).size} generating programs**, languages ${count(
    docs.map((d) => d.language),
  )
    .map(([l, n]) => `${l} ${n}`)
    .join(', ')}; ${fields} header fields and ${cells} line-item cells are labelled.

### Sources (pinned commits)

${sourcesTable(docs)}

### How the documents were chosen

- Every \`*.pdf\` under the folders above, read with \`git cat-file\` at the pinned commit. **Never read**: the reserved families kept for independent checking (the FeRD/AWV example family wherever re-published or renamed — \`ZUGFeRD_1p0_*\`, \`ZUGFeRD_2p*\`, \`EN16931_*\`, \`XRECHNUNG_*\`, \`Extended_*\`/\`ZF_*\`, \`MINIMUM_*\`/\`BASIC_*\`/\`BASIC-WL_*\` example names, \`Musterrechnung_*\`, \`pdf_zf_*\`, \`attributeBasedXMP_zugferd_*\`, \`validV1WithAdditionalData*\`, any \`*Beispiel*\`, \`documentation/\` or \`Dokumentation/\` folder (the FeRD packages), every \`intarsys\`, \`4s4u\`, \`symtrax\` folder, Invoice Ninja): the builder filters these paths before reading a file, and drops a PDF whose Creator/Producer names intarsys, 4s4u, symtrax or Invoice Ninja. Deliberately broken fixtures (\`fail\`, \`invalid\`, \`corrupt\` …) and Order-X orders are skipped by name.
- A PDF is used when it has an embedded CII (ZUGFeRD 1.0, ZUGFeRD 2 / Factur-X) or UBL XML and a text layer, and when the XML's invoice number or grand total is printed on it (otherwise the XML describes another invoice).
- Byte-identical files and PDFs with the same page text (one invoice in several XML profiles) count once: the richest profile is kept (EXTENDED > EN16931/COMFORT/XRECHNUNG > BASIC > BASIC WL > MINIMUM).
- **Page-layout families:** the generating program (the PDF's Producer before "(via …)", else Creator + Producer, version numbers removed) plus a coarse fingerprint of the first page: its set of words of ≥ 3 letters (pdftotext). A PDF joins the first family whose first member shares ≥ 50 % of those words (Jaccard) when it has the same program, ≥ 60 % when not (one design stamped by another tool or version; known spellings of one program, e.g. Mustang's sample applications, are merged first); **at most 5 documents per family** are kept, richest profile first, then by source and path.
- **Input:** the PDF with every embedded file removed by qpdf (\`--remove-attachment\`); the builder checks that no attachment is left and that the XML's total elements no longer occur in the uncompressed file. The XMP metadata still names the Factur-X/ZUGFeRD schema (no invoice values).
- Languages are guessed from the page's label words (de/fr/en).

### How the labels were derived

The rules of \`../shared/corpus/zugferd-facturx/PROVENANCE.md\`, implemented in \`tools/eval/einvoice-labels.mjs\`:
\`invoice_number\` ← document ID, \`invoice_date\` ← issue date, \`due_date\` ← payment-terms due date (UBL: DueDate), \`seller_name\`/\`buyer_name\` ← party name (UBL: registration name, else party name), \`currency\` ← invoice currency, \`total_amount\` ← GrandTotalAmount (UBL TaxInclusiveAmount; not the amount due), \`net_amount\` ← TaxBasisTotalAmount (UBL TaxExclusiveAmount), \`tax_amount\` ← TaxTotalAmount in the invoice currency, \`vat_id\` ← seller tax registration with scheme VA, \`iban\` ← payee IBAN (spaces removed), \`line_items\` ← lines (name → description, billed quantity, net unit price, line net amount).
- Every value is checked against \`pdftotext -layout\` of the stripped PDF, normalised as score.mjs normalises strings (NFKC, case-folded, whitespace removed). Amounts: printed with 2 decimals or the XML's own decimals, \`,\` or \`.\` as decimal mark, grouped with \`.\`, \`,\`, \`'\`, space or not, and not glued to further digits. Dates: ISO, day-first and month-first numeric forms with \`.\`, \`/\`, \`-\` and 2- or 4-digit years, and month names in English, German and French. Currency: the code or an unambiguous sign. Names: the whole XML text, else its printed lines joined with spaces.
- A value that is not printed is **dropped and listed in \`unlabelled.json\`** (the page may show it in another form), so a value read from the page is not counted as a false positive.
- Credit notes (type 381, 261, 396): an amount printed only with a minus sign is expected negative, as printed.
- **MINIMUM and BASIC WL profiles** (and XML without lines) carry no line items: header fields only, \`line_items\` unlabelled.
- Line items: the row's description is looked for on the page; its other cells are checked within ±2 lines of it. A row whose description is not printed is dropped; a cell whose value is not printed there is unlabelled (\`line_items[<row>].<column>\`).

### Documents

${documentsTable(docs)}

### Labels dropped, trimmed or sign-corrected

${dropsTable(docs)}

### Files found but not used

${skippedTable(ctx.log)}
${END}
`;
}

export function writeProvenance(out, docs, ctx) {
  const file = path.join(out, 'PROVENANCE.md');
  let old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : HEAD;
  const i = old.indexOf(BEGIN),
    j = old.indexOf(END);
  if (i >= 0 && j > i) old = old.slice(0, i) + old.slice(j + END.length + 1);
  fs.writeFileSync(file, old.trimEnd() + '\n\n' + block(docs, ctx));
}
