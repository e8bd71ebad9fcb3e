import type { ExtractionEngine, ExtractionInput, ExtractionOptions, ExtractionSchema } from './engine.types.js';
import type { LayoutExemplarData } from './memory/memory.types.js';
import type { OcrEngineMode, OcrService } from './readers/ocr.service.js';
import type { InflationLimits } from './readers/pdf.inflation.js';

export interface EngineOptions {
  /** Largest accepted input in bytes (default `MAX_ARTIFACT_BYTES`, 50 MiB, also checked at submit); larger inputs fail with `file_too_large`. */
  maxBytes?: number;
  /** Pages read per document (default 200); the rest are ignored and not billed. */
  maxPages?: number;
  /**
   * Default OCR backend of jobs whose `ocrEngine` is `default` or unset: 'auto' and 'native' use the native
   * `tesseract` binary when it is on PATH and has every OCR language, else tesseract.js; 'tesseract.js' always
   * uses tesseract.js.
   */
  ocr?: OcrEngineMode;
  /** ONNX threads of the PaddleOCR engine (default 1). */
  ocrThreads?: number;
  /**
   * OCR readings at once, each in a worker thread that is terminated when its job's deadline passes (default 1; the
   * worker passes WORKER_CONCURRENCY). `ocrIsolate: false` reads in this thread instead (not stoppable); the default
   * isolates when running the built library (see createOcrService).
   */
  ocrPoolSize?: number;
  ocrIsolate?: boolean;
  /**
   * Bounds on the bytes a PDF's Flate streams inflate to: one stream (default 256 MiB) and the document, one stream's
   * bound plus this much per page read (default 32 MiB). Beyond them the job fails with `decompression_limit`.
   */
  pdfInflation?: Partial<InflationLimits>;
  /**
   * Default OCR languages, e.g. `eng+deu` or `['eng', 'deu']` (supported: eng, deu, fra, nld). Default: the
   * `OCR_LANGUAGES` environment variable, else English only. An unsupported value throws at creation.
   */
  ocrLanguages?: string | readonly string[];
  /** An OCR service to use instead of the built-in one (tests, embedding); the engine does not close it. */
  ocrService?: OcrService;
  /**
   * Read a PDF's embedded e-invoice XML (Factur-X / ZUGFeRD / XRechnung attachments) as its data (default true). The
   * evaluation (`npm run eval`) turns it off so that its scores measure the reading of the pages.
   */
  embeddedInvoices?: boolean;
}

/** The engine plus optional cleanup: close() terminates the OCR worker so the process can exit. */
export interface DocketExtractionEngine extends ExtractionEngine {
  learnLayout(
    input: ExtractionInput,
    schema: ExtractionSchema,
    values: Record<string, unknown>,
    options?: ExtractionOptions,
  ): Promise<LayoutExemplarData>;
  close(): Promise<void>;
}
