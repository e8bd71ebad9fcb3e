import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocketError } from './errors.js';
import type { ExtractRequest } from './types.js';

/** The largest file the engine reads (50 MiB); `artifact_size` beyond is refused at submit. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

export type ArtifactType = ExtractRequest['artifact_type'];

/** A file to extract: a path, a `file:` URL, bytes, a Blob, or a readable stream (read to the end: the PUT is bound to its size). */
export type FileInput = string | URL | Uint8Array | ArrayBuffer | Blob | AsyncIterable<Uint8Array | string>;

export interface FileOptions {
  /** Sent as `filename` (default: the path's base name, else `document` + the extension of the sniffed type). */
  filename?: string;
  /** Sent as `artifact_type` and the PUT's Content-Type (default: from the extension, else sniffed from the bytes). */
  contentType?: ArtifactType;
}

export interface PreparedFile {
  bytes: Uint8Array;
  filename: string;
  contentType: ArtifactType;
}

const BY_EXTENSION: Record<string, ArtifactType> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
};

const EXTENSION_OF: Partial<Record<ArtifactType, string>> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/tiff': '.tiff',
};

/** The type from the first bytes (PDF, PNG, JPEG, TIFF, WebP, BMP), else `application/octet-stream` (the server resolves it). */
export function sniffType(bytes: Uint8Array): ArtifactType {
  const head = Buffer.from(bytes.subarray(0, 12));
  if (head.subarray(0, 4).toString('latin1') === '%PDF') return 'application/pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const four = head.subarray(0, 4).toString('latin1');
  if (four === 'II*\u0000' || four === 'MM\u0000*') return 'image/tiff';
  if (four === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (head.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  return 'application/octet-stream';
}

export function typeFromFilename(filename: string): ArtifactType | undefined {
  return BY_EXTENSION[extname(filename).toLowerCase()];
}

async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += buf.length;
    if (size > MAX_FILE_BYTES) throw new DocketError(`file larger than ${MAX_FILE_BYTES} bytes (the engine's limit)`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

async function bytesOf(input: FileInput): Promise<{ bytes: Uint8Array; path?: string }> {
  if (typeof input === 'string') return { bytes: await readFile(input), path: input };
  if (input instanceof URL) {
    if (input.protocol !== 'file:') throw new DocketError(`only file: URLs are read here, not ${input.protocol}`);
    const path = fileURLToPath(input);
    return { bytes: await readFile(path), path };
  }
  if (input instanceof Uint8Array) return { bytes: input };
  if (input instanceof ArrayBuffer) return { bytes: new Uint8Array(input) };
  if (typeof Blob !== 'undefined' && input instanceof Blob) return { bytes: new Uint8Array(await input.arrayBuffer()) };
  if (input && typeof (input as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function')
    return { bytes: await readAll(input as AsyncIterable<Uint8Array | string>) };
  throw new DocketError('file must be a path, a file: URL, a Uint8Array/Buffer, an ArrayBuffer, a Blob or a readable stream');
}

/** Reads the input and settles the filename and type sent at submit (the upload URL is signed against both). */
export async function prepareFile(input: FileInput, options: FileOptions = {}): Promise<PreparedFile> {
  const { bytes, path } = await bytesOf(input);
  if (bytes.length === 0) throw new DocketError('the file is empty');
  if (bytes.length > MAX_FILE_BYTES) throw new DocketError(`file larger than ${MAX_FILE_BYTES} bytes (the engine's limit)`);
  const named = options.filename ?? (path ? basename(path) : undefined);
  const contentType = options.contentType ?? (named ? typeFromFilename(named) : undefined) ?? sniffType(bytes);
  const filename = named ?? `document${EXTENSION_OF[contentType] ?? ''}`;
  return { bytes, filename, contentType };
}
