import type { FieldDefDto } from '../common/field-def.dto.js';

/** `jobs.v1.run` on stream JOBS: everything the worker needs, including the immutable schema snapshot. */
export interface JobRunMessage {
  jobId: string;
  artifactId: string;
  accountId: string;
  sandbox: boolean;
  /** Object key of the raw upload. */
  sourceKey: string;
  mimeType: string;
  filename: string;
  schema: { fields: FieldDefDto[] };
  templateId: string | null;
  templateVersion: number | null;
  confidenceThreshold: number;
  /** Template setting `ocr_engine` (`default` | `tesseract` | `tesseract.js`); absent in messages queued before it existed. */
  ocrEngine?: string;
  /** Template setting `default_currency` (ISO 4217); absent or null: amounts printed without a currency keep none. */
  defaultCurrency?: string | null;
}

/** Object keys for results (ARCHITECTURE §4). */
export const resultKeys = (accountId: string, artifactId: string, jobId: string) => ({
  json: `results/${accountId}/${artifactId}/${jobId}.json`,
  markdown: `results/${accountId}/${artifactId}/${jobId}.md`,
});

/** Content-Type of the result objects (signed into the worker's presigned PUT URLs). */
export const RESULT_CONTENT_TYPES = { json: 'application/json', markdown: 'text/markdown; charset=utf-8' } as const;

/** An id segment of an object key (account, artifact, job ids): no dots, no slashes. */
const KEY_ID_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Whether `key` is one of the result keys (`resultKeys`) of job `jobId`, whatever its account and artifact segments:
 * for a job whose record is gone, the only objects that can carry its (unique) id.
 */
export function isResultKeyOfJob(key: string, jobId: string): boolean {
  const [top, account, artifact, name, ...rest] = key.split('/');
  const ids = [account, artifact, jobId].every((s) => s !== undefined && KEY_ID_SEGMENT.test(s));
  return top === 'results' && ids && rest.length === 0 && (name === `${jobId}.json` || name === `${jobId}.md`);
}

/** A filename kept as it is in an object key: plain ASCII, at most this many characters, not a dot path. */
const PLAIN_KEY_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._\-() ]{1,100}$/;
/** The extension kept when a filename is replaced in its key (letters and digits, at most 10). */
const KEY_EXTENSION = /\.([A-Za-z0-9]{1,10})$/;

/**
 * The object-key segment of an uploaded filename. Plain short ASCII names stay as they are; any other name (non-ASCII,
 * `%`, path dots, a name longer than a filesystem's 255 bytes once UTF-8 encoded …) becomes `file.<ext>`: stores
 * that map keys to files (MinIO, the embedded S3) refuse such segments with a 500. The artifact id already makes
 * the key unique; the filename itself stays in the artifact record.
 */
export function keySafeFilename(filename: string): string {
  if (PLAIN_KEY_NAME.test(filename)) return filename;
  const ext = KEY_EXTENSION.exec(filename)?.[1];
  return ext ? `file.${ext}` : 'file';
}

export const rawKey = (accountId: string, artifactId: string, filename: string) =>
  `raw/${accountId}/${artifactId}/${keySafeFilename(filename)}`;
