import { MAX_ARTIFACT_BYTES } from '@docket/contracts';
import { ExtractionError, type ExtractionInput, type ExtractionOptions } from '../engine.types.js';
import type { EngineOptions } from '../engine.options.js';
import type { DocLayout } from '../layout/layout.types.js';
import { firstPages } from '../page.count.js';
import type { DocKind } from '../type.sniffer.js';
import { readImage } from './image.reader.js';
import { assertImagePixels, underDeadline } from './input.limits.js';
import {
  createOcrService,
  DEFAULT_OCR_LANGUAGES,
  OCR_LANGUAGES,
  parseOcrLanguages,
  type OcrEngineMode,
  type OcrLanguage,
  type OcrService,
} from './ocr.service.js';
import { openPdfText, type PdfText } from './pdf.reader.js';
import { DEFAULT_INFLATION_LIMITS, type InflationLimits } from './pdf.inflation.js';
import { readCsv, readHtml, readText } from './text.reader.js';
import { isTiff, readTiff } from './tiff.reader.js';

/** Largest input the engine reads by default (the shared 50 MiB limit, also checked at submit); the worker checks it with a HEAD before downloading. */
export const DEFAULT_MAX_INPUT_BYTES = MAX_ARTIFACT_BYTES;
/** Pages read per document unless the engine is given another bound. */
const DEFAULT_MAX_PAGES = 200;

/** Template `ocr_engine` values (and the engine's own names) → backend; `default`, unset or unknown → the engine's. */
export function ocrEngineMode(value: string | undefined): OcrEngineMode | undefined {
  switch (value) {
    case 'tesseract':
    case 'native':
      return 'native';
    case 'tesseract.js':
      return 'tesseract.js';
    case 'paddle':
      return 'paddle';
    case 'auto':
      return 'auto';
    default:
      return undefined;
  }
}

/** The engine's default OCR languages: the option, else `OCR_LANGUAGES`, else English; a bad value throws. */
export function resolveOcrLanguages(value: string | readonly string[] | undefined = process.env.OCR_LANGUAGES): readonly OcrLanguage[] {
  if (value === undefined || (typeof value === 'string' && !value.trim())) return DEFAULT_OCR_LANGUAGES;
  const langs = parseOcrLanguages(value);
  if (!langs) throw new Error(`OCR languages must be a '+'-separated list of ${OCR_LANGUAGES.join(', ')} (got '${String(value)}')`);
  return langs;
}

/** The read stage as one engine uses it: inputs checked, the shared OCR service, every reader by kind of file. */
export interface JobReader {
  maxPages: number;
  inflation: InflationLimits;
  /** Input every job must have: bytes, not empty, within the size limit. */
  checkInput(input: ExtractionInput): void;
  /** The shared OCR service seen through one job's settings (template `ocr_engine`, job languages). */
  jobOcr(opts: ExtractionOptions): OcrService;
  /** A PDF's text layer, kept open until its pictures are known to be needed or not. */
  openPdf(bytes: Uint8Array, opts: ExtractionOptions): Promise<PdfText>;
  /** Any other kind of file, read whole. */
  read(kind: DocKind, bytes: Uint8Array, opts: ExtractionOptions): Promise<DocLayout>;
  close(): Promise<void>;
}

export function createJobReader(options: EngineOptions): JobReader {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const inflation: InflationLimits = { ...DEFAULT_INFLATION_LIMITS, ...options.pdfInflation };
  const languages = resolveOcrLanguages(options.ocrLanguages);
  let ocr: OcrService | undefined;
  const getOcr = () =>
    options.ocrService ??
    (ocr ??= createOcrService({
      engine: options.ocr ?? 'auto',
      languages,
      threads: options.ocrThreads,
      poolSize: options.ocrPoolSize,
      isolate: options.ocrIsolate,
    }));
  /** Pages one job reads: its own cap (the pages its wallet covers), within the engine's. */
  const jobMaxPages = (opts: ExtractionOptions) => Math.max(1, Math.min(maxPages, opts.maxPages ?? maxPages));

  function jobOcr(opts: ExtractionOptions): OcrService {
    const engine = ocrEngineMode(opts.ocrEngine);
    const langs = jobLanguages(opts.ocrLanguages);
    return {
      recognize: (image, o) => getOcr().recognize(image, { ...o, engine, languages: langs, signal: opts.signal }),
      backend: (o) => getOcr().backend?.({ ...o, engine, languages: langs }) ?? 'tesseract.js',
      close: async () => undefined,
    };
  }

  return {
    maxPages,
    inflation,
    jobOcr,
    checkInput: (input) => checkInput(input, maxBytes),
    openPdf: (bytes, opts) =>
      underDeadline(openPdfText(bytes, { ocr: jobOcr(opts), maxPages: jobMaxPages(opts), signal: opts.signal, inflation }), opts.signal),
    read(kind, bytes, opts) {
      const signal = opts.signal;
      switch (kind) {
        case 'image':
          if (isTiff(bytes)) return readTiff(bytes, jobOcr(opts), { maxPages: jobMaxPages(opts), signal });
          assertImagePixels(bytes); // before anything decodes it (TIFF pages are checked by their reader)
          return readImage(bytes, jobOcr(opts));
        case 'csv':
          return Promise.resolve(readCsv(bytes));
        case 'html':
          return Promise.resolve(readHtml(bytes));
        default:
          return Promise.resolve(firstPages(readText(bytes), jobMaxPages(opts)));
      }
    },
    async close() {
      const o = ocr;
      ocr = undefined;
      await o?.close();
    },
  };
}

/** Input every job must have: bytes, not empty, at most `maxBytes`. */
function checkInput(input: ExtractionInput, maxBytes: number): void {
  if (!input || !(input.bytes instanceof Uint8Array)) throw new ExtractionError('extraction_failed', 'input bytes missing');
  if (input.bytes.byteLength === 0) throw new ExtractionError('empty_file', 'the file is empty');
  if (input.bytes.byteLength > maxBytes) throw new ExtractionError('file_too_large', `the file is larger than ${maxBytes} bytes`);
}

/** A job's own OCR languages, when it names any; an unsupported list fails the job. */
function jobLanguages(given: ExtractionOptions['ocrLanguages']): OcrLanguage[] | undefined {
  if (given === undefined || given === null || !(typeof given === 'string' ? given.trim() : given.length)) return undefined;
  const langs = parseOcrLanguages(given);
  if (!langs)
    throw new ExtractionError('extraction_failed', `unsupported OCR languages '${String(given)}' (supported: ${OCR_LANGUAGES.join(', ')})`);
  return langs;
}
