import { readFileSync } from 'node:fs';
import { PaddleOcr } from './libs/extraction/dist/readers/paddle.ocr.js';
const p = new PaddleOcr();
const r = await p.recognize(new Uint8Array(readFileSync(process.argv[2])));
for (const w of r.words.filter(w => w.y0 < +(process.argv[3] ?? 400))) console.log(JSON.stringify(w.text).padEnd(24), Math.round(w.x0), Math.round(w.y0), Math.round(w.x1), Math.round(w.y1), w.conf.toFixed(2));
