import { describe, expect, it } from '@jest/globals';
import { DEFAULT_AUTO_ENGINE, DEFAULT_OCR_LANGUAGES, parseOcrLanguages, resolveOcrBackend } from './ocr.service.js';
import { parseTsv } from './ocr.tesseract.js';

describe('parseOcrLanguages', () => {
  it('accepts tesseract notation, commas and spaces; keeps order, drops duplicates', () => {
    expect(parseOcrLanguages('eng')).toEqual(['eng']);
    expect(parseOcrLanguages('eng+deu+fra+nld')).toEqual(['eng', 'deu', 'fra', 'nld']);
    expect(parseOcrLanguages(' DEU, eng  eng ')).toEqual(['deu', 'eng']);
    expect(parseOcrLanguages(['nld', 'eng'])).toEqual(['nld', 'eng']);
  });

  it('rejects unsupported or empty lists', () => {
    for (const v of ['', '  ', '+', 'spa', 'eng+spa', 'english', ['eng', 'xx'], []]) expect(parseOcrLanguages(v)).toBeUndefined();
    expect(parseOcrLanguages(undefined)).toBeUndefined();
  });

  it('defaults to supported languages', () => {
    expect(parseOcrLanguages([...DEFAULT_OCR_LANGUAGES])).toEqual([...DEFAULT_OCR_LANGUAGES]);
  });
});

describe('resolveOcrBackend', () => {
  const full = () => ({ available: true, languages: new Set(['eng', 'deu', 'fra', 'nld', 'osd']) });
  const englishOnly = () => ({ available: true, languages: new Set(['eng', 'osd']), bundled: false });
  const englishOnlyWithBundled = () => ({ available: true, languages: new Set(['eng', 'osd']) });
  const absent = () => ({ available: false, languages: new Set<string>() });

  it('uses the native binary for native (and auto beyond English) when it is present with every language', () => {
    expect(resolveOcrBackend('native', ['eng'], full)).toBe('native');
    expect(resolveOcrBackend('native', ['eng', 'deu', 'fra', 'nld'], full)).toBe('native');
    expect(resolveOcrBackend('auto', ['eng', 'deu'], full)).toBe('native');
  });

  it('reads English with PaddleOCR when asked to, and other languages with tesseract (no lost accents)', () => {
    expect(resolveOcrBackend('paddle', ['eng'], full)).toBe('paddle');
    expect(resolveOcrBackend('paddle', ['eng'], absent)).toBe('paddle');
    expect(resolveOcrBackend('paddle', ['eng', 'deu'], full)).toBe('native');
    expect(resolveOcrBackend('paddle', ['fra'], absent)).toBe('tesseract.js');
  });

  it('auto is the measured best for English', () => {
    expect(resolveOcrBackend('auto', ['eng'], full)).toBe(DEFAULT_AUTO_ENGINE);
  });

  it('falls back to tesseract.js when the binary is absent or lacks a language', () => {
    expect(resolveOcrBackend('native', ['eng'], absent)).toBe('tesseract.js');
    expect(resolveOcrBackend('auto', ['eng', 'nld'], absent)).toBe('tesseract.js');
    expect(resolveOcrBackend('native', ['eng', 'deu'], englishOnly)).toBe('tesseract.js');
    expect(resolveOcrBackend('native', ['eng'], englishOnly)).toBe('native');
  });

  it('gives the native binary every bundled language when the bundled models can be unpacked for it', () => {
    expect(resolveOcrBackend('native', ['eng', 'deu'], englishOnlyWithBundled)).toBe('native');
  });

  it('always uses tesseract.js when asked to', () => {
    expect(resolveOcrBackend('tesseract.js', ['eng'], full)).toBe('tesseract.js');
  });
});

describe('parseTsv', () => {
  it('reads words with boxes and confidences, and the page size', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t30\t12\t95.5\tTotal',
      '5\t1\t1\t1\t1\t2\t50\t20\t40\t12\t-1\t ',
    ].join('\n');
    expect(parseTsv(tsv)).toEqual({ width: 800, height: 600, words: [{ text: 'Total', x0: 10, y0: 20, x1: 40, y1: 32, conf: 0.955 }] });
  });
});
