// The development datasets as the evaluation and training scripts see them: where they are, their documents and schemas.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** The wide sets built outside the repository (../shared/corpus/build-wide.mjs and tools/eval/build-*.mjs). */
export const WIDE_SETS = ['sroie-wide', 'funsd-wide', 'invoices-wide', 'tables-wide'];
/** A small set whose documents are all inside a wide set: left out where that wide set is present (no double counting). */
export const CONTAINED_IN = { sroie: 'sroie-wide', funsd: 'funsd-wide' };

/** The folder of the wide sets: the option, else $DOCKET_CORPUS_WIDE, else ../corpus-wide beside the repository. */
export function wideRootOf(repo, option) {
  return resolve(repo, option ?? process.env.DOCKET_CORPUS_WIDE ?? '../corpus-wide');
}

/** Dataset folders (those with a manifest.json) directly under `root`. */
export function datasetDirs(root) {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .map((d) => join(root, d))
    .filter((d) => statSync(d).isDirectory() && existsSync(join(d, 'manifest.json')));
}

/** The wide sets of WIDE_SETS found under `wideRoot`, and the names of those missing. */
export function wideSets(wideRoot) {
  const found = datasetDirs(wideRoot).filter((d) => WIDE_SETS.includes(basename(d)));
  return { found, missing: WIDE_SETS.filter((n) => !found.some((d) => basename(d) === n)) };
}

export const MIME = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
};

/** A dataset's documents: id, file path, media type and (when the manifest has it) sha256. */
export function listDocs(dir) {
  const manifest = join(dir, 'manifest.json');
  if (existsSync(manifest)) {
    return JSON.parse(readFileSync(manifest, 'utf8')).map((e) => ({
      id: e.id,
      file: join(dir, e.doc ?? e.file),
      mime: e.media_type,
      sha256: e.sha256,
    }));
  }
  return readdirSync(join(dir, 'docs')).map((f) => ({
    id: f.replace(/\.[^.]+$/, ''),
    file: join(dir, 'docs', f),
    mime: MIME[f.split('.').pop().toLowerCase()] ?? 'application/octet-stream',
  }));
}

/** The extraction schema of one document: its own (schemas/<id>.json) or the dataset's. */
export function schemaFor(dir, id) {
  const per = join(dir, 'schemas', `${id}.json`);
  return JSON.parse(readFileSync(existsSync(per) ? per : join(dir, 'schema.json'), 'utf8'));
}
