import { parentPort, workerData } from 'node:worker_threads';
import { createOcrService, type RecognizeOptions } from './ocr.service.js';
import type { OcrThreadSettings } from './ocr.threads.js';

/**
 * One thread of the OcrThreadPool: an in-process OCR service (its models loaded once, on first use) answering one
 * reading at a time. The pool terminates the thread when a reading outlives its deadline.
 */
const ocr = createOcrService({ ...(workerData as OcrThreadSettings), isolate: false });
parentPort!.on('message', (m: { image: Uint8Array; opts: RecognizeOptions }) => {
  ocr.recognize(m.image, m.opts).then(
    (result) => parentPort!.postMessage({ result }),
    (e: unknown) => parentPort!.postMessage({ error: (e as Error)?.message ?? String(e) }),
  );
});
