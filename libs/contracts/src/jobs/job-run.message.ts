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
}

/** Object keys for results (ARCHITECTURE §4). */
export const resultKeys = (accountId: string, artifactId: string, jobId: string) => ({
  json: `results/${accountId}/${artifactId}/${jobId}.json`,
  markdown: `results/${accountId}/${artifactId}/${jobId}.md`,
});

export const rawKey = (accountId: string, artifactId: string, filename: string) => `raw/${accountId}/${artifactId}/${filename}`;
