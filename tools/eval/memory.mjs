// Layout memory measurement (ADR 0014, `npm run eval -- --memory`). Protocol, per dataset:
//   1. group the documents by layout: the manifest's `layout_family`, else its template (`source_repo` + `design` +
//      `language`), else the expected issuer (`seller_name` / `company`), else the document it is a rendering of;
//   2. the first document of each group (manifest order) is corrected: the engine's result with every expected value
//      put in its place, learned by `engine.learnLayout` — the call the worker makes for a correction or approval;
//   3. every later document of a group is extracted twice: without memory (the baseline) and with the exemplars of
//      every group of the dataset as the account's memory (so a wrong match can cost, as it would in production);
//   4. both are scored by the corpus scorer on those later documents only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { schemaFor } from './datasets.mjs';

const squash = (s) =>
  String(s ?? '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

function manifestEntries(dir) {
  const file = join(dir, 'manifest.json');
  return existsSync(file) ? new Map(JSON.parse(readFileSync(file, 'utf8')).map((e) => [e.id, e])) : new Map();
}

const expectedOf = (dir, id) => {
  const file = join(dir, 'expected', `${id}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};

/** The layout group of a document (see the protocol above). */
export function layoutKey(entry, expected) {
  if (entry?.layout_family) return `family:${entry.layout_family}`;
  if (entry?.source_repo && entry?.design) return `template:${entry.source_repo}/${entry.design}/${entry.language ?? ''}`;
  const issuer = squash(expected?.seller_name ?? expected?.company);
  if (issuer) return `issuer:${issuer}`;
  return `doc:${entry?.render_of ?? entry?.id}`;
}

/** Groups of documents of one layout, in manifest order; only groups of two or more documents. */
export function layoutGroups(dir, docs) {
  const entries = manifestEntries(dir);
  const groups = new Map();
  for (const d of docs) {
    const key = layoutKey(entries.get(d.id) ?? { id: d.id }, expectedOf(dir, d.id));
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.entries()].filter(([, g]) => g.length > 1);
}

const inputOf = (d) => ({ bytes: new Uint8Array(readFileSync(d.file)), mimeType: d.mime, filename: basename(d.file) });

/**
 * Runs the protocol on one dataset: writes the baseline and memory predictions of the later documents to
 * `<out>.base` and `<out>.memory`, returns their ids and how many of them an exemplar helped.
 */
export async function memoryRun(engine, dir, docs, out, log) {
  const groups = layoutGroups(dir, docs);
  const exemplars = [];
  for (const [key, [first]] of groups) {
    const schema = schemaFor(dir, first.id);
    const engineResult = await engine.extract(inputOf(first), schema).then(
      (r) => r.result,
      () => ({}),
    );
    const corrected = { ...engineResult, ...expectedOf(dir, first.id) };
    const learned = await engine.learnLayout(inputOf(first), schema, corrected);
    exemplars.push({ id: `${key}#${first.id}`, ...learned });
  }
  const later = groups.flatMap(([, g]) => g.slice(1));
  for (const kind of ['base', 'memory']) mkdirSync(`${out}.${kind}`, { recursive: true });
  let helped = 0;
  for (const d of later) {
    const schema = schemaFor(dir, d.id);
    for (const kind of ['base', 'memory']) {
      try {
        const res = await engine.extract(inputOf(d), schema, kind === 'memory' ? { memory: exemplars } : {});
        if (kind === 'memory' && res.memory) helped++;
        writeFileSync(join(`${out}.${kind}`, `${d.id}.json`), JSON.stringify(res.result, null, 1));
      } catch (e) {
        log(`  ${basename(dir)}/${d.id} (${kind}): ${e.code ?? 'error'}: ${e.message}`);
      }
    }
  }
  return { groups: groups.length, ids: later.map((d) => d.id), helped };
}
