import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/* eslint-disable @nx/enforce-module-boundaries -- deliberate: what `npm run chaos` submits */
// @ts-expect-error plain ESM module without types
import { documentFor, loadMix, readCorpusDocuments } from '../../../tools/chaos/load.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

/** A corpus-shaped directory with invented files: `<set>/docs/<file>`. */
function inventedCorpus(): string {
  const root = mkdtempSync(join(tmpdir(), 'docket-chaos-load-'));
  const put = (set: string, file: string) => {
    mkdirSync(join(root, set, 'docs'), { recursive: true });
    writeFileSync(join(root, set, 'docs', file), `invented ${file}`);
  };
  put('alpha', 'one.pdf');
  put('alpha', 'two.PNG');
  put('beta', 'three.jpg');
  put('beta', 'notes.txt');
  return root;
}

describe('chaos load: text mixed with the corpus PDFs and scans', () => {
  it('reads PDFs and images from every set, leaving other files out', () => {
    const corpus = readCorpusDocuments(inventedCorpus());
    expect(corpus.pdfs.map((d: { name: string; type: string }) => [d.name, d.type])).toEqual([['alpha-one.pdf', 'application/pdf']]);
    expect(corpus.scans.map((d: { name: string; type: string }) => [d.name, d.type])).toEqual([
      ['alpha-two.PNG', 'image/png'],
      ['beta-three.jpg', 'image/jpeg'],
    ]);
  });

  it('mixes one PDF and one scan into every period, cycling through them', () => {
    const corpus = readCorpusDocuments(inventedCorpus());
    expect(Array.from({ length: 8 }, (_, i) => documentFor(i, corpus, 4).name)).toEqual([
      'alpha-one.pdf',
      'alpha-two.PNG',
      'chaos-2.txt',
      'chaos-3.txt',
      'alpha-one.pdf',
      'beta-three.jpg',
      'chaos-6.txt',
      'chaos-7.txt',
    ]);
    expect(loadMix(300, corpus, 4)).toEqual({ text: 150, pdf: 75, scan: 75 });
  });

  it('is text only without a corpus', () => {
    const corpus = readCorpusDocuments(join(tmpdir(), 'docket-no-such-corpus'));
    expect(corpus).toEqual({ pdfs: [], scans: [] });
    expect(loadMix(20, corpus, 4)).toEqual({ text: 20, pdf: 0, scan: 0 });
  });
});
