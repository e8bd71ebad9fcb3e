import type { ExtractionInput, ExtractionOptions, ExtractionOutput, ExtractionSchema } from './engine.types.js';
import type { DocLayout } from './layout/layout.types.js';
import { betterReading, extractCounted, extractFromLayout, type CountedExtraction } from './document.extraction.js';
import { isLowResPage, readImage } from './readers/image.reader.js';
import { underDeadline } from './readers/input.limits.js';
import type { JobReader } from './readers/job.reader.js';
import { hasWidePicture } from './readers/pdf.pictures.js';
import type { PdfText } from './readers/pdf.reader.js';
import { isTiff } from './readers/tiff.reader.js';
import type { DocKind } from './type.sniffer.js';

/** Field location on a read document, with the second readings that scans and PDFs with pictures may need. */
export async function extractRead(
  reader: JobReader,
  kind: DocKind,
  input: ExtractionInput,
  doc: DocLayout,
  schema: ExtractionSchema,
  opts: ExtractionOptions,
  pdf: PdfText | undefined,
): Promise<ExtractionOutput> {
  let first: CountedExtraction | undefined;
  let failure: unknown;
  try {
    first = extractCounted(doc, schema, opts);
  } catch (e) {
    failure = e;
  }
  const unanswered = (schema?.fields ?? []).some((f) => f.data_type !== 'table' && first?.output.result[f.key] === undefined);
  // A low-resolution page scan that left fields unanswered is read a second time as sparse text (the small
  // printed labels of forms come out better that way); the reading whose labels anchored more answers wins.
  if (kind === 'image' && unanswered && first && !isTiff(input.bytes) && isLowResPage(input.bytes)) {
    const sparse = await underDeadline(readImage(input.bytes, reader.jobOcr(opts), 1, { sparse: true }), opts.signal);
    return betterReading(first, extractCounted(sparse, schema, opts)).output;
  }
  // Pictures inside a text-layer PDF (a company block pasted as an image) are read only when the text layer
  // left scalar fields unanswered: OCR costs ~1 s a picture, and most documents never need it.
  if (pdf && unanswered && hasWidePicture(input.bytes)) {
    const richer = await underDeadline(pdf.withPictureText({ ocr: reader.jobOcr(opts), signal: opts.signal }), opts.signal);
    if (wordCount(richer) > wordCount(doc)) return extractFromLayout(richer, schema, opts);
  }
  if (failure !== undefined) throw failure;
  return first!.output;
}

function wordCount(doc: DocLayout): number {
  return doc.pages.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.words.length, 0), 0);
}
