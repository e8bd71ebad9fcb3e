import type { CandidateTrace, ExtractionOptions, ExtractionOutput, ExtractionSchema } from './engine.types.js';
import { inferContext, setDocLocales } from './document.context.js';
import { LOCALE_PACKS } from './locales/locale.pack.js';
import type { DocLayout } from './layout/layout.types.js';
import { labelCandidates, otherLabelTest } from './candidates/label.candidates.js';
import { chooseByLabels } from './assignment/label.choice.js';
import { assignFields } from './assignment/field.assignment.js';
import { validateDocument } from './validation/document.validation.js';
import { renderMarkdown } from './render/markdown.renderer.js';
import { inPrintedFrame } from './render/printed.frame.js';
import { candidateFeatures } from './features/candidate.features.js';
import type { FieldCandidate } from './candidates/label.candidates.js';

// The stages after reading, for one read document: candidates → choice by label → assignment under constraints →
// validation → render (the engine wires reading in front of them, extraction.engine.ts).

/** The page-only reading of a hybrid PDF, to compare its XML with; undefined when it found nothing it could return. */
export function pageReading(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions): ExtractionOutput | undefined {
  try {
    return extractFromLayout(doc, schema, opts);
  } catch {
    return undefined;
  }
}

/** Runs field location, validation and scoring on an already-read document. */
export function extractFromLayout(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions = {}): ExtractionOutput {
  return extractCounted(doc, schema, opts).output;
}

/** An extraction and how many fields were answered from their label as printed on the page (forms). */
export interface CountedExtraction {
  output: ExtractionOutput;
  printedLabels: number;
}

/**
 * Which of two readings of one page to keep: the one whose printed labels anchored more answers (the OCR
 * read the form's questions), then the more confident one.
 */
export function betterReading(a: CountedExtraction, b: CountedExtraction): CountedExtraction {
  if (a.printedLabels !== b.printedLabels) return a.printedLabels > b.printedLabels ? a : b;
  return b.output.confidence > a.output.confidence ? b : a;
}

/** The stages after reading: candidates → choice by label → assignment under constraints → validation. */
export function extractCounted(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions = {}): CountedExtraction {
  applyLocales(doc, opts);
  const ctx = inferContext(doc);
  const fields = schema?.fields ?? [];
  const cands = labelCandidates(doc, fields, ctx);
  const choice = chooseByLabels(doc, fields, ctx, cands, otherLabelTest(fields));
  const { result, meta, memory } = assignFields(doc, fields, ctx, cands, choice, opts);
  if (opts.candidateTrace) opts.candidateTrace(traceOf(doc, cands, result));
  const { confidence, needsReview } = validateDocument(fields, result, meta, opts);
  inPrintedFrame(doc, meta);
  const output = { result, fields: meta, confidence, needsReview, pages: doc.pages.length, markdown: renderMarkdown(doc) };
  return { output: { ...output, ...(memory ? { memory } : {}) }, printedLabels: choice.printedLabels };
}

/** The job's locale packs, when it names any, decide the document's vocabulary. */
export function applyLocales(doc: DocLayout, opts: ExtractionOptions): void {
  if (opts.locales?.length)
    setDocLocales(
      doc,
      opts.locales.filter((id) => LOCALE_PACKS.has(id)),
    );
}

/** Each scalar field's candidates with their feature vectors (the training hook, `ExtractionOptions.candidateTrace`). */
function traceOf(doc: DocLayout, cands: FieldCandidate[], result: Record<string, unknown>): CandidateTrace {
  const xs = candidateFeatures(doc, cands);
  const fields = new Map<string, CandidateTrace['fields'][number]>();
  cands.forEach(({ f, c }, i) => {
    const entry = fields.get(f.key) ?? { key: f.key, candidates: [] };
    entry.candidates.push({ value: c.value, features: xs[i] });
    fields.set(f.key, entry);
  });
  return { fields: [...fields.values()], result: structuredClone(result) };
}
