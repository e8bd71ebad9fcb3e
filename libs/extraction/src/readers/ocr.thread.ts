import { createOcrService, type RecognizeOptions } from './ocr.service.js';
import type { OcrThreadSettings } from './ocr.threads.js';

/**
 * One reader process of the OcrProcessPool: an in-process OCR service (its models loaded once, on first use) answering
 * one reading at a time over the IPC channel. The pool kills the process when a reading outlives its deadline.
 */
const settings = JSON.parse(process.argv[2] ?? '{}') as OcrThreadSettings;
const ocr = createOcrService({ ...settings, isolate: false });
process.on('message', (m: { image: Uint8Array; opts: RecognizeOptions }) => {
  ocr.recognize(m.image, m.opts).then(
    (result) => process.send!({ result }),
    (e: unknown) => process.send!({ error: (e as Error)?.message ?? String(e) }),
  );
});
// The parent gone (its channel closed), nothing is left to answer.
process.on('disconnect', () => process.exit(0));
