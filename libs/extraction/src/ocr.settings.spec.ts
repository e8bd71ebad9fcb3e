import { describe, expect, it } from '@jest/globals';
import { ExtractionError, type ExtractionSchema } from './engine.types.js';
import { createExtractionEngine, ocrEngineMode, resolveOcrLanguages } from './extraction.engine.js';
import type { OcrService, RecognizeOptions } from './readers/ocr.service.js';
import { encodePng } from './readers/tiff.reader.js';
import { makePdf } from './testing/pdf.test-helper.js';
import { makeTiff, textPage } from './testing/tiff.test-helper.js';

/** A fake OCR that records the options of every call and reads nothing. */
function recordingOcr() {
  const calls: RecognizeOptions[] = [];
  const ocr: OcrService = {
    async recognize(_image, opts = {}) {
      calls.push(opts);
      // An upright reading (three confident words: fewer, and the image would be tried the other ways up too).
      return {
        words: [
          { text: 'Total:', x0: 10, y0: 10, x1: 60, y1: 22, conf: 0.9 },
          { text: '12.50', x0: 70, y0: 10, x1: 110, y1: 22, conf: 0.9 },
          { text: 'EUR', x0: 120, y0: 10, x1: 150, y1: 22, conf: 0.9 },
        ],
      };
    },
    async close() {},
  };
  return { ocr, calls };
}

const schema: ExtractionSchema = { fields: [{ key: 'total', label: 'Total', data_type: 'number' }] };
/** A tiny white PNG: the fake OCR never looks at it. */
const png = (): Promise<Uint8Array> => encodePng(new Uint8Array([255, 255, 255, 255]), 1, 1);

describe('template setting ocr_engine', () => {
  it('maps the template values to OCR backends; default and unknown values keep the engine default', () => {
    expect(ocrEngineMode('tesseract')).toBe('native');
    expect(ocrEngineMode('tesseract.js')).toBe('tesseract.js');
    expect(ocrEngineMode('default')).toBeUndefined();
    expect(ocrEngineMode(undefined)).toBeUndefined();
    expect(ocrEngineMode('easyocr')).toBeUndefined();
  });

  it('reaches every OCR call of a job: images, TIFF pages and scanned PDF pages', async () => {
    const { ocr, calls } = recordingOcr();
    const engine = createExtractionEngine({ ocrService: ocr });
    const tiff = makeTiff([textPage(['a'], 1400, 200), textPage(['b'], 1400, 200)]);
    const out = await engine.extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema, { ocrEngine: 'tesseract' });
    expect(out.result).toEqual({ total: 12.5 });
    await engine.extract({ bytes: tiff, mimeType: 'image/tiff', filename: 'a.tif' }, schema, { ocrEngine: 'tesseract.js' });
    await engine.extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema, { ocrEngine: 'default' });
    await engine.extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema);
    expect(calls.map((c) => c.engine)).toEqual(['native', 'tesseract.js', 'tesseract.js', undefined, undefined]);
    await engine.close();
  });

  it('passes the job languages; an unsupported list fails the job with a coded error', async () => {
    const { ocr, calls } = recordingOcr();
    const engine = createExtractionEngine({ ocrService: ocr });
    await engine.extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema, { ocrLanguages: 'eng+deu' });
    expect(calls[0]!.languages).toEqual(['eng', 'deu']);
    await engine.extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema, { ocrLanguages: '' });
    await engine.extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema, { ocrLanguages: [] });
    expect(calls.slice(1).map((c) => c.languages)).toEqual([undefined, undefined]); // empty = the engine's languages
    const err = await engine
      .extract({ bytes: await png(), mimeType: 'image/png', filename: 'a.png' }, schema, { ocrLanguages: 'eng+xx' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect((err as ExtractionError).code).toBe('extraction_failed');
    await engine.close();
  });
});

describe('OCR languages of the engine', () => {
  it('come from the option, else OCR_LANGUAGES, else English', () => {
    expect(resolveOcrLanguages('eng+fra')).toEqual(['eng', 'fra']);
    expect(resolveOcrLanguages(undefined)).toEqual(process.env.OCR_LANGUAGES ? expect.any(Array) : ['eng']);
    expect(resolveOcrLanguages('')).toEqual(['eng']);
  });

  it('refuse an unsupported value at creation', () => {
    expect(() => createExtractionEngine({ ocrLanguages: 'eng+klingon' })).toThrow(/OCR languages/);
  });
});

describe('multi-page TIFF through the engine', () => {
  it('reads every page (pages are billed) and honours maxPages', async () => {
    const { ocr, calls } = recordingOcr();
    const tiff = makeTiff([1, 2, 3].map((n) => textPage([`page ${n}`], 1400, 200)));
    const engine = createExtractionEngine({ ocrService: ocr });
    const out = await engine.extract({ bytes: tiff, mimeType: 'image/tiff', filename: 'scan.tif' }, schema);
    expect(out.pages).toBe(3);
    expect(calls).toHaveLength(3);
    const capped = createExtractionEngine({ ocrService: ocr, maxPages: 2 });
    expect((await capped.extract({ bytes: tiff, mimeType: 'application/octet-stream', filename: 'scan.tif' }, schema)).pages).toBe(2);
  }, 30_000);

  it('fails a damaged TIFF with corrupt_file', async () => {
    const { ocr } = recordingOcr();
    const engine = createExtractionEngine({ ocrService: ocr });
    const tiff = makeTiff([textPage(['x'], 300, 100)]);
    const err = await engine
      .extract({ bytes: tiff.slice(0, 12), mimeType: 'image/tiff', filename: 'a.tif' }, schema)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect((err as ExtractionError).code).toBe('corrupt_file');
  });

  it('OCRs a PDF page without text layer through the same service', async () => {
    const { ocr, calls } = recordingOcr();
    const engine = createExtractionEngine({ ocrService: ocr });
    const pdf = await makePdf((d) => d.rect(10, 10, 50, 50).fill('#000'), { size: [200, 200] });
    await engine.extract({ bytes: pdf, mimeType: 'application/pdf', filename: 'scan.pdf' }, schema, { ocrEngine: 'tesseract' });
    expect(calls).toEqual([{ engine: 'native', languages: undefined }]);
  }, 30_000);
});
