// What a chaos run submits: invented text files mixed with real PDFs and scans read at run time from the
// evaluation corpus beside the repository (`../shared/corpus/*/docs`, never copied into it), so the PDF
// reader, OCR and the extraction deadline all run under faults. Without the corpus the load is text only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Content type of each corpus file the run submits, by extension (anything else is left out). */
const TYPES = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** Out of every `period` submissions (MIX_PERIOD, SMOKE_MIX_PERIOD for the short run): PDFs, then scans, the rest text. */
export const MIX_PERIOD = 4;
export const SMOKE_MIX_PERIOD = 10;
export const PDFS_PER_PERIOD = 1;
export const SCANS_PER_PERIOD = 1;

/** Every PDF and image under `<corpusRoot>/<set>/docs`, as `{ name, type, bytes }`, split into PDFs and scans. */
export function readCorpusDocuments(corpusRoot) {
  const pdfs = [];
  const scans = [];
  if (!existsSync(corpusRoot)) return { pdfs, scans };
  for (const set of readdirSync(corpusRoot).sort()) {
    const dir = join(corpusRoot, set, 'docs');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      const type = TYPES[extname(file).toLowerCase()];
      if (!type) continue;
      const doc = { name: `${set}-${file}`, type, bytes: readFileSync(join(dir, file)) };
      (type === 'application/pdf' ? pdfs : scans).push(doc);
    }
  }
  return { pdfs, scans };
}

/** Invented text invoice number `i`. */
export function textDocument(i) {
  return { name: `chaos-${i}.txt`, type: 'text/plain', bytes: Buffer.from(`Invoice Number: CH-${i}\nTotal: EUR ${i},00\n`) };
}

/**
 * The document of submission `i`: in every `period`, PDFS_PER_PERIOD PDFs then SCANS_PER_PERIOD scans (cycling
 * through the corpus), the rest text; text only when the corpus has none of that kind.
 */
export function documentFor(i, { pdfs, scans }, period = MIX_PERIOD) {
  const slot = i % period;
  const round = Math.floor(i / period);
  if (slot < PDFS_PER_PERIOD && pdfs.length) return pdfs[(round * PDFS_PER_PERIOD + slot) % pdfs.length];
  const scanSlot = slot - PDFS_PER_PERIOD;
  if (scanSlot >= 0 && scanSlot < SCANS_PER_PERIOD && scans.length) return scans[(round * SCANS_PER_PERIOD + scanSlot) % scans.length];
  return textDocument(i);
}

/** `documentFor` over `count` submissions, tallied by kind (text / pdf / scan). */
export function loadMix(count, corpus, period = MIX_PERIOD) {
  const mix = { text: 0, pdf: 0, scan: 0 };
  for (let i = 0; i < count; i++) {
    const t = documentFor(i, corpus, period).type;
    mix[t === 'text/plain' ? 'text' : t === 'application/pdf' ? 'pdf' : 'scan']++;
  }
  return mix;
}

/** Runs `fn(0 … count-1)` with at most `concurrency` at once (the submitting clients); results in order. */
export async function pool(count, concurrency, fn) {
  let next = 0;
  const out = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}
