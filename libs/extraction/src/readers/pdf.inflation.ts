import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createInflate, inflateSync } from 'node:zlib';
import { ExtractionError } from '../engine.types.js';

const MIB = 1024 * 1024;

/**
 * Largest size one PDF stream may inflate to (bytes). The largest picture the readers decode (MAX_IMAGE_PIXELS, 60 Mpx,
 * at 4 bytes a pixel: 240 MB) fits; a content stream of an ordinary page inflates to kilobytes.
 */
export const DEFAULT_MAX_INFLATED_STREAM_BYTES = 256 * MIB;
/**
 * Inflated bytes a PDF may hold per page read, beyond one largest stream: a page scanned in colour at 300 dpi and
 * stored Flate-compressed inflates to 26 MB.
 */
export const DEFAULT_MAX_INFLATED_BYTES_PER_PAGE = 32 * MIB;

/** Bounds on the bytes a PDF's Flate streams inflate to (ADR 0008): a 1 MB stream can inflate to 1 GB. */
export interface InflationLimits {
  /** Largest inflated size of one stream (default DEFAULT_MAX_INFLATED_STREAM_BYTES). */
  maxStreamBytes: number;
  /** Document budget per page read (default DEFAULT_MAX_INFLATED_BYTES_PER_PAGE): the document may inflate to maxStreamBytes + pages × this. */
  maxBytesPerPage: number;
}

export const DEFAULT_INFLATION_LIMITS: InflationLimits = {
  maxStreamBytes: DEFAULT_MAX_INFLATED_STREAM_BYTES,
  maxBytesPerPage: DEFAULT_MAX_INFLATED_BYTES_PER_PAGE,
};

/** The inflated bytes a document of `pages` pages read may hold. */
export function documentInflationBudget(limits: InflationLimits, pages: number): number {
  return limits.maxStreamBytes + Math.max(1, pages) * limits.maxBytesPerPage;
}

/** Output chunk of the counting inflaters: large chunks keep a 256 MiB count to a few hundred stream writes. */
const INFLATE_CHUNK_BYTES = 256 * 1024;
/**
 * Streams smaller than this (compressed) with one Flate filter are inflated in one synchronous call (at most ~1030×
 * their size, 16 MB): the streaming count costs a thread-pool round trip per stream, several times the work for the
 * many small content and font streams of an ordinary PDF.
 */
const SYNC_INFLATE_MAX_INPUT = 16 * 1024;
/** How far before a `stream` keyword its dictionary is looked for (a stream dictionary is a few hundred bytes). */
const DICT_LOOKBEHIND = 4096;

/** A stream in the raw file: its dictionary's text and its (still encoded) data. */
interface RawStream {
  dict: string;
  data: Uint8Array;
}

/**
 * Every stream of the raw file, found by its `stream` … `endstream` keywords rather than through the cross-reference
 * table (as pdfjs itself rebuilds a broken one). Object streams are streams too, so their inflated size is counted;
 * streams cannot nest inside them.
 */
export function* rawStreams(bytes: Uint8Array): Generator<RawStream> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const keyword = /(?<!end)stream(?:\r\n|\n|\r)/g;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    const before = text.slice(Math.max(0, m.index - DICT_LOOKBEHIND), m.index);
    const dict = before.slice(before.lastIndexOf(' obj') + 1);
    yield { dict, data: bytes.subarray(start, end < 0 ? bytes.length : end) };
    if (end > 0) keyword.lastIndex = end;
  }
}

/** How many Flate decodings a stream's filter chain starts with (`/FlateDecode`, `/Fl`); its output is what is counted. */
export function flateLayers(dict: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict)?.[1];
  if (!filter) return 0;
  const names = filter.match(/\/[A-Za-z0-9]+/g) ?? [];
  let layers = 0;
  while (layers < names.length && (names[layers] === '/FlateDecode' || names[layers] === '/Fl')) layers++;
  return layers;
}

/**
 * Bytes `data` inflates to through `layers` Flate decodings, counted without keeping them (memory stays at a few
 * chunks) and no further than `cap` + one chunk. Corrupt or truncated data counts what inflated before the damage,
 * as pdfjs reads it.
 */
export async function inflatedSize(data: Uint8Array, layers: number, cap: number, signal?: AbortSignal): Promise<number> {
  if (layers === 1 && data.length <= SYNC_INFLATE_MAX_INPUT) {
    try {
      return inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: cap + 1 }).length;
    } catch {
      // beyond the cap, or corrupt: the streaming count says how far it gets
    }
  }
  let count = 0;
  const counter = new Writable({
    write(chunk: Buffer, _enc, done) {
      count += chunk.length;
      if (signal?.aborted) return done(new ExtractionError('extraction_timeout', 'extraction was aborted'));
      done(count > cap ? new RangeError('inflation cap reached') : null);
    },
  });
  const inflaters = Array.from({ length: layers }, () =>
    createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: INFLATE_CHUNK_BYTES }),
  );
  try {
    await pipeline([Readable.from([data]), ...inflaters, counter]);
  } catch (e) {
    if (e instanceof ExtractionError) throw e;
    // the cap, or corrupt data: the count so far is the answer
  }
  return count;
}

/**
 * Refuses (`decompression_limit`) a PDF one of whose Flate streams inflates beyond `limits.maxStreamBytes`, or all of
 * whose streams together inflate beyond the budget of `maxPages` pages, before pdfjs inflates anything. Returns the
 * document's inflated bytes, for `assertDocumentInflation` once its page count is known.
 */
export async function checkPdfInflation(
  bytes: Uint8Array,
  limits: InflationLimits,
  maxPages: number,
  signal?: AbortSignal,
): Promise<number> {
  const budget = documentInflationBudget(limits, maxPages);
  // The same bytes are checked again when the worker counts pages, then reads them (and `auto` reads twice): a
  // completed count is exact, so it answers any later budget without inflating anything again.
  const known = measured.get(bytes);
  if (known && known.maxStreamBytes === limits.maxStreamBytes) {
    if (known.total > budget) throw tooMuch(budget, maxPages);
    return known.total;
  }
  let total = 0;
  for (const s of rawStreams(bytes)) {
    const layers = flateLayers(s.dict);
    if (!layers) continue;
    const size = await inflatedSize(s.data, layers, Math.min(limits.maxStreamBytes, budget - total), signal);
    if (size > limits.maxStreamBytes) {
      throw new ExtractionError(
        'decompression_limit',
        `a stream of the PDF inflates to more than ${limits.maxStreamBytes} bytes (the per-stream limit)`,
      );
    }
    total += size;
    if (total > budget) throw tooMuch(budget, maxPages);
  }
  measured.set(bytes, { maxStreamBytes: limits.maxStreamBytes, total });
  return total;
}

/** Inflated totals of documents checked to the end, by their bytes (gone with them). */
const measured = new WeakMap<Uint8Array, { maxStreamBytes: number; total: number }>();

/** The document check of `checkPdfInflation` against the pages the document really has (up to those read). */
export function assertDocumentInflation(total: number, limits: InflationLimits, pages: number): void {
  const budget = documentInflationBudget(limits, pages);
  if (total > budget) throw tooMuch(budget, pages);
}

function tooMuch(budget: number, pages: number): ExtractionError {
  return new ExtractionError(
    'decompression_limit',
    `the PDF's streams inflate to more than ${budget} bytes, the limit for ${pages} page(s)`,
  );
}
