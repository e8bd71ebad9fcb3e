import { readFileSync } from 'node:fs';
import { PaddleOcr } from './libs/extraction/dist/readers/paddle.ocr.prof.js';
import { readImage } from './libs/extraction/dist/readers/image.reader.js';
import { imageSize } from './libs/extraction/dist/readers/image.reader.js';
const f = process.argv[2];
const b = new Uint8Array(readFileSync(f));
console.log(imageSize(b));
const p = new PaddleOcr({threads: 1});
let calls = 0; let tot = 0;
const svc = { recognize: async (img, o) => { const t = Date.now(); const r = await p.recognize(img); calls++; tot += Date.now()-t; console.log('call', Date.now()-t, 'ms', r.words.length, 'words'); return r; }, close: async () => {} };
await p.recognize(b); // warm
const t = Date.now(); const l = await readImage(b, svc); console.log('readImage', Date.now() - t, 'ms, calls', calls);
console.log(l.pages[0].lines.slice(0, 12).map(l => l.text).join('\n'));
