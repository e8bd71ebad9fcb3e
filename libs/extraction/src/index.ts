export * from './engine.types.js';
export {
  createExtractionEngine,
  DEFAULT_MAX_INPUT_BYTES,
  extractFromLayout,
  ocrEngineMode,
  resolveOcrLanguages,
  type DocketExtractionEngine,
  type EngineOptions,
} from './extraction.engine.js';
export {
  DEFAULT_OCR_LANGUAGES,
  OCR_ENGINE_MODES,
  OCR_LANGUAGES,
  parseOcrLanguages,
  type OcrEngineMode,
  type OcrLanguage,
} from './readers/ocr.service.js';
export { hasNativeTesseract, nativeTesseractLanguages } from './readers/ocr.tesseract.js';
export { DEFAULT_MAX_INFLATED_BYTES_PER_PAGE, DEFAULT_MAX_INFLATED_STREAM_BYTES, type InflationLimits } from './readers/pdf.inflation.js';
export { syntheticResult } from './synthetic.result.js';
export { parseNumber } from './parsers/number.parser.js';
export { parseDate, findDates } from './parsers/date.parser.js';
export { parseCurrency, detectCurrency } from './parsers/currency.parser.js';
export { parseBoolean } from './parsers/boolean.parser.js';
export { classifyDocument, extractAuto, type AutoDocumentKind, type KindChoice } from './auto/auto.extractor.js';
export { sniffType, type DocKind } from './type.sniffer.js';
export { fingerprintOf, similarity, bestExemplar, MATCH_MIN } from './memory/fingerprint.js';
export { learnFromLayout } from './memory/exemplar.builder.js';
