import { ExtractionError } from './engine.types.js';

export type DocKind = 'pdf' | 'image' | 'text' | 'csv' | 'html';

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/tiff', 'image/tif', 'image/webp', 'image/bmp', 'image/x-ms-bmp']);

function magic(b: Uint8Array): 'pdf' | 'image' | undefined {
  const s = String.fromCharCode(...b.subarray(0, 12));
  // `%PDF` may be preceded by junk bytes; readers accept it within the first kilobyte.
  if (String.fromCharCode(...b.subarray(0, Math.min(1024, b.length))).includes('%PDF-')) return 'pdf';
  if (s.startsWith('\x89PNG') || s.startsWith('\xff\xd8\xff') || s.startsWith('II*\0') || s.startsWith('MM\0*') || (s.startsWith('RIFF') && s.slice(8, 12) === 'WEBP') || s.startsWith('BM'))
    return 'image';
  return undefined;
}

/**
 * Decides the reader from the declared MIME type, checked against the bytes: a declared PDF or image
 * whose bytes are not one is corrupt; `application/octet-stream` is resolved by magic bytes.
 */
export function sniffType(mimeType: string, bytes: Uint8Array, filename = ''): DocKind {
  const mime = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  const m = magic(bytes);
  if (mime === 'application/pdf' || mime === 'application/x-pdf') {
    if (m !== 'pdf') throw new ExtractionError('corrupt_file', 'the file is declared as PDF but is not a PDF');
    return 'pdf';
  }
  if (IMAGE_MIMES.has(mime)) {
    if (m !== 'image') throw new ExtractionError('corrupt_file', `the file is declared as ${mime} but is not a supported image`);
    return 'image';
  }
  if (mime === 'text/plain') return 'text';
  if (mime === 'text/csv' || mime === 'application/csv') return 'csv';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === '' || mime === 'application/octet-stream') {
    if (m) return m;
    const ext = filename.toLowerCase().split('.').pop();
    if (ext === 'txt') return 'text';
    if (ext === 'csv') return 'csv';
    if (ext === 'html' || ext === 'htm') return 'html';
  }
  throw new ExtractionError('unsupported_type', `${mime || "unknown type"} is not supported`);
}
