import { readFileSync } from 'node:fs';
import { createOcrService } from './libs/extraction/dist/readers/ocr.service.dbg.js';
import { readImage } from './libs/extraction/dist/readers/image.reader.js';
const eng = process.argv[3] ?? 'paddle';
const ocr = createOcrService({ engine: eng });
const l = await readImage(new Uint8Array(readFileSync(process.argv[2])), ocr);
console.log(l.pages[0].lines.slice(0, +(process.argv[4] ?? 14)).map(l => l.words.map(w=>w.text).join(' | ')).join('\n'));
await ocr.close();
