import { ARTIFACT_TYPES_BY_READER, baseMimeType } from '@docket/contracts';
import { ExtractionError } from './engine.types.js';

export type DocKind = 'pdf' | 'image' | 'text' | 'csv' | 'html' | 'xml';

/** Declared type → reader; the list is shared with submit-time validation (`SUPPORTED_ARTIFACT_TYPES`). */
const READER_OF = new Map<string, DocKind | 'sniffed'>(
  Object.entries(ARTIFACT_TYPES_BY_READER).flatMap(([kind, mimes]) => mimes.map((m) => [m, kind as DocKind | 'sniffed'] as const)),
);

function magic(b: Uint8Array): 'pdf' | 'image' | 'xml' | undefined {
  const s = String.fromCharCode(...b.subarray(0, 12));
  // `%PDF` may be preceded by junk bytes; readers accept it within the first kilobyte.
  if (String.fromCharCode(...b.subarray(0, Math.min(1024, b.length))).includes('%PDF-')) return 'pdf';
  if (
    s.startsWith('\x89PNG') ||
    s.startsWith('\xff\xd8\xff') ||
    s.startsWith('II*\0') ||
    s.startsWith('MM\0*') ||
    (s.startsWith('RIFF') && s.slice(8, 12) === 'WEBP') ||
    s.startsWith('BM')
  )
    return 'image';
  // An XML declaration (after an optional byte-order mark): an e-invoice sent as octet-stream.
  if (/^(\xef\xbb\xbf)?\s{0,8}<\?xml\s/.test(String.fromCharCode(...b.subarray(0, 24)))) return 'xml';
  return undefined;
}

/**
 * Decides the reader from the declared MIME type, checked against the bytes: a declared PDF or image
 * whose bytes are not one is corrupt; `application/octet-stream` is resolved by magic bytes.
 */
export function sniffType(mimeType: string, bytes: Uint8Array, filename = ''): DocKind {
  const mime = baseMimeType(mimeType);
  const m = magic(bytes);
  const reader = READER_OF.get(mime) ?? (mime === '' ? 'sniffed' : undefined);
  if (reader === 'pdf') {
    if (m !== 'pdf') throw new ExtractionError('corrupt_file', 'the file is declared as PDF but is not a PDF');
    return 'pdf';
  }
  if (reader === 'image') {
    if (m !== 'image') throw new ExtractionError('corrupt_file', `the file is declared as ${mime} but is not a supported image`);
    return 'image';
  }
  if (reader === 'text' || reader === 'csv' || reader === 'html' || reader === 'xml') return reader;
  if (reader === 'sniffed') {
    if (m) return m;
    const ext = filename.toLowerCase().split('.').pop();
    if (ext === 'txt') return 'text';
    if (ext === 'csv') return 'csv';
    if (ext === 'html' || ext === 'htm') return 'html';
    if (ext === 'xml') return 'xml';
  }
  throw new ExtractionError('unsupported_type', `${mime || 'unknown type'} is not supported`);
}
