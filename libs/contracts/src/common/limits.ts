import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Input limits shared by the gateway, the services and the extraction engine (docs/adr, input limits). The spec leaves
 * the maximum file size and the readable types open; these are the one answer, checked at submit.
 */

/** Largest file the extraction engine reads (bytes). `artifact_size` above it is refused at submit. */
export const MAX_ARTIFACT_BYTES = 50 * 1024 * 1024;

/** Upper bound of a page count in a message (the engine reads far fewer: 200 by default). */
export const MAX_DOCUMENT_PAGES = 100_000;

/**
 * MIME types the engine reads, by reader. `application/octet-stream` is resolved from the bytes (PDF or image
 * magic, an `<?xml` declaration) or the filename extension (`.txt`, `.csv`, `.html`, `.xml`). Compared
 * case-insensitively, parameters ignored. `xml` is an e-invoice (XRechnung / UBL / CII), read from its data.
 */
export const ARTIFACT_TYPES_BY_READER = {
  pdf: ['application/pdf', 'application/x-pdf'],
  image: ['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/tiff', 'image/tif', 'image/webp', 'image/bmp', 'image/x-ms-bmp'],
  text: ['text/plain'],
  csv: ['text/csv', 'application/csv'],
  html: ['text/html', 'application/xhtml+xml'],
  xml: ['application/xml', 'text/xml'],
  sniffed: ['application/octet-stream'],
} as const;

export const SUPPORTED_ARTIFACT_TYPES: readonly string[] = Object.values(ARTIFACT_TYPES_BY_READER).flat();

/** `type/subtype` of a MIME type, lower-cased, without parameters. */
export function baseMimeType(mime: string): string {
  return (mime ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isSupportedArtifactType(mime: unknown): boolean {
  return typeof mime === 'string' && SUPPORTED_ARTIFACT_TYPES.includes(baseMimeType(mime));
}

/** Offsets of list queries (templates, deliveries, webhook logs): beyond this nothing is ever returned. */
export const MAX_LIST_OFFSET = 1_000_000;

/** Bound of `validation.min_value` / `max_value` in a field definition (absolute value). */
export const MAX_FIELD_VALIDATION_NUMBER = 1e15;

/** Deepest JSON nesting the gateway accepts in a request body (a table field inside a table field is depth ~7). */
export const MAX_JSON_DEPTH = 32;

/** `artifact_size` over the engine's limit: 400 `file_too_large` (a coded rule, not a shape error). */
export const FILE_TOO_LARGE_RULE = {
  context: { code: 'file_too_large' },
  message: `artifact_size must not exceed ${MAX_ARTIFACT_BYTES} bytes (50 MiB), the largest file the extraction engine reads`,
};

/** `artifact_type` the engine cannot read: 400 `unsupported_artifact_type`, the supported list in the message. */
export function IsSupportedArtifactType(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSupportedArtifactType',
      validator: {
        validate: (value: unknown) => isSupportedArtifactType(value),
        defaultMessage: () => `artifact_type must be a type the extraction engine reads: ${SUPPORTED_ARTIFACT_TYPES.join(', ')}`,
      },
    },
    { context: { code: 'unsupported_artifact_type', supported: SUPPORTED_ARTIFACT_TYPES }, ...options },
  );
}
