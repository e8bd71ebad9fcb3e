// The `tpl-` section of PROVENANCE.md in invoices-wide/ and tables-wide/, written by build-invoices-templates.mjs.

const count = (xs, f) => new Set(xs.map(f)).size;

/** Markdown for one set: sources with commits and licences, how labels were derived, every dropped label. */
export function provenance(set, programs, report) {
  const lines = [
    `## \`tpl-\` documents: invoice templates of open-source invoicing programs (${set === 'invoices' ? 'invoices' : 'tables'})`,
    '',
    `Built by \`tools/eval/build-invoices-templates.mjs\` (product repository). ${report.length} documents, ${count(report, (r) => r.program)} programs, ` +
      `${count(report, (r) => `${r.program}/${r.design}`)} designs, languages ${[...new Set(report.map((r) => r.lang))].sort().join(', ')}, ` +
      `${report.reduce((a, r) => a + r.pages, 0)} pages.`,
    '',
    '| program | repository @ commit | licence | engine | designs (template paths) |',
    '|---|---|---|---|---|',
    ...programs.map(
      (p) =>
        `| ${p.name} | ${p.source.repo} @ ${p.source.commit} | ${p.licence} | ${p.engine} | ${p.designs.map((d) => `\`${d.path}\``).join(', ')} |`,
    ),
    '',
    '**Documents.** Each design is filled with invented data (seeded generator, names made of syllables, generic item',
    'vocabulary; no corpus text) through its own template language and printed to PDF by headless Chromium. The',
    "templates are not edited; where a template calls the program's helpers (translation, money and date formatting,",
    "country names, CSS bundles), minimal helpers supply data (the program's own translation files where it has them;",
    'InvoicePlane and Crater run with their own PHP helper files). Blade (Crater) is compiled to PHP by a minimal compiler',
    "of the directives the designs use (`tools/eval/templates/blade.mjs`); PHP designs run under Debian's php-cli 8.2.",
    'CSS that the programs compile from SCSS or bundle with webpack is not rebuilt: those pages print with default styles.',
    '',
    '**Labels.** The truth is the data rendered, mapped to the schema: invoice number, dates (ISO), seller and buyer',
    'names, currency (ISO code; kept when its code or symbol is printed), grand total, net total, tax total (kept only',
    "where the page prints one tax total), the seller's VAT ID and IBAN; line items from the item table (description =",
    'the whole description cell, a note sub-line joined with a space; where a design prints the item name and its',
    'description in two columns (InvoicePlane), the name column; quantity; unit price; line amount as printed).',
    'Tables: one `table` field per item or report table, columns = header cells as printed, numeric columns `number`.',
    'Every label is checked against the page text (`pdftotext -layout` and reading order, score.mjs normalisation,',
    'whitespace removed) in the surface form the template prints; a label not found is dropped and listed below.',
    '',
    '**Dropped labels** (not printed on the page):',
    '',
    ...report.filter((r) => r.dropped.length).map((r) => `- ${r.id}: ${r.dropped.join(', ')}`),
    ...(report.some((r) => r.dropped.length) ? [] : ['- none']),
  ];
  return lines.join('\n');
}
