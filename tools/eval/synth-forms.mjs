#!/usr/bin/env node
// A generalisation check for scanned forms: writes a dataset of INVENTED filled-in forms as PNG scans (typed answers
// in a typewriter face beside printed labels), laid out like a corpus dataset (docs/, expected/, schemas/,
// manifest.json), for `npm run eval -- --corpus` (OCR runs on every page). Every label and answer comes from the
// small invented lists below, combined by a seeded generator. Layouts vary the way office forms do: "LABEL:" with the
// answer right of it (on a rule or not), two label/answer pairs on one row, a label over its answer, a boxed grid of
// cells with the label at the top of each cell, check-box options with one ticked, a date, a multi-line remark.
//   node tools/eval/synth-forms.mjs --out /tmp/synth-forms [--count 40] [--seed 3]
// Expected values are the answers as typed (the schema of the funsd corpus: one field per question, labelled as printed).
import { createCanvas } from '@napi-rs/canvas';
import { cliOptions, datasetWriter, randomSource } from './synth.common.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-forms', count: 40, seed: 3 });
const SYLLABLES = [
  'ka',
  'lor',
  'ven',
  'mi',
  'sel',
  'tra',
  'bo',
  'nix',
  'ra',
  'fen',
  'gul',
  'wes',
  'tan',
  'ber',
  'lin',
  'mar',
  'ost',
  'quen',
  'zel',
  'ha',
];
const { rand, pick, chance, int, word } = randomSource(seed, SYLLABLES);
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const QUESTIONS = [
  ['REQUESTED BY', () => `${word(1)[0]}. ${word()}`],
  ['DEPARTMENT', () => `${word()} ${pick(['Research', 'Planning', 'Services', 'Testing'])}`],
  ['PROJECT NO.', () => `${int(1980, 1999)}-${int(100, 999)}`],
  ['PHONE', () => `(${int(200, 899)}) ${int(200, 899)}-${String(int(0, 9999)).padStart(4, '0')}`],
  ['BRAND', () => `${word().toUpperCase()} ${pick(['LIGHTS', 'MILD', 'REGULAR', 'ULTRA'])}`],
  ['QUANTITY', () => String(int(2, 900))],
  ['SAMPLE CODE', () => `${word(1).toUpperCase()}-${int(1000, 9999)}`],
  ['APPROVED BY', () => `${word(1)[0]}. ${word(1)[0]}. ${word()}`],
  ['LOCATION', () => `${word()}, ${word()}`],
  ['ACCOUNT', () => `${word()} ${pick(['Stores', 'Markets', 'Supply'])}`],
  ['COST CENTER', () => String(int(1000, 9999))],
  ['SUBJECT', () => `${pick(['Review of', 'Test of', 'Shipment of'])} ${word().toLowerCase()} ${pick(['samples', 'materials', 'packs'])}`],
];
const OPTIONS = [
  ['YES', 'NO'],
  ['NEW', 'REVISED', 'FINAL'],
  ['FULL', 'PARTIAL'],
  ['INTERNAL', 'EXTERNAL'],
];

function form() {
  const qs = [...QUESTIONS].sort(() => rand() - 0.5).slice(0, int(4, 7));
  const fields = [];
  const want = {};
  const draw = []; // [kind, x, y, text]
  draw.push(['title', 60, 50, `${word().toUpperCase()} ${pick(['REQUEST FORM', 'PROJECT SHEET', 'ROUTING SLIP', 'SAMPLE ORDER'])}`]);
  let y = 120;
  const ask = (label, value, type = 'string') => {
    const key = label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '');
    if (fields.some((f) => f.key === key)) return false;
    fields.push({ key, label, data_type: type });
    want[key] = value;
    return true;
  };
  for (let i = 0; i < qs.length; i++) {
    const [label, make] = qs[i];
    const value = make();
    const layout = pick(['right', 'right', 'pair', 'below']);
    if (layout === 'pair' && i + 1 < qs.length) {
      const [label2, make2] = qs[++i];
      const value2 = make2();
      ask(label, value);
      ask(label2, value2);
      draw.push(['pair', 60, y, `${label}:`, value], ['pair', 520, y, `${label2}:`, value2]);
    } else if (layout === 'below') {
      ask(label, value);
      draw.push(['box', 55, y - 26, 600], ['label', 62, y - 6, label], ['answer', 70, y + 24, value]);
      y += 20;
    } else {
      ask(label, value);
      draw.push(['label', 60, y, `${label}:`], ['answer', 280, y, value], ...(chance(0.6) ? [['rule', 270, y, 380]] : []));
    }
    y += 50;
  }
  // A date.
  const d = new Date(Date.UTC(int(1985, 1999), int(0, 11), int(1, 28)));
  const printed = pick([
    `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`,
    `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${String(d.getUTCFullYear()).slice(2)}`,
  ]);
  const dateLabel = pick(['DATE', 'DATE SUBMITTED', 'DATE REQUIRED']);
  ask(dateLabel, d.toISOString().slice(0, 10), 'date');
  draw.push(['label', 60, y, `${dateLabel}:`], ['answer', 280, y, printed]);
  y += 50;
  // Check boxes: one option ticked; the field is the ticked option's label, its value the mark.
  const opts = pick(OPTIONS);
  const ticked = int(0, opts.length - 1);
  let x = 60;
  opts.forEach((o, k) => {
    draw.push(['checkbox', x, y, k === ticked ? 'X' : ''], ['label', x + 34, y, o]);
    x += 34 + o.length * 14 + 40;
  });
  ask(opts[ticked], '☑'); // (a cross in a printed box is answered as a ticked box, as in the funsd annotations)
  y += 60;
  // A remark over two lines.
  if (chance(0.6)) {
    const remark = `${pick(['Please forward', 'Samples to be tested', 'Results are due'])} ${word().toLowerCase()} ${pick(['before', 'after', 'by'])} the ${word().toLowerCase()} ${pick(['meeting', 'review', 'deadline'])} and ${word().toLowerCase()} ${pick(['reports', 'files', 'results'])}`;
    const words = remark.split(' ');
    const half = Math.ceil(words.length / 2);
    ask('REMARKS', remark);
    draw.push(
      ['label', 60, y, 'REMARKS:'],
      ['answer', 200, y, words.slice(0, half).join(' ')],
      ['answer', 200, y + 30, words.slice(half).join(' ')],
    );
  }
  return { fields, want, draw };
}

function png({ draw }) {
  const [w, h] = [1000, 1300];
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#111';
  ctx.strokeStyle = '#222';
  ctx.textBaseline = 'alphabetic';
  for (const [kind, x, y, a, b] of draw) {
    if (kind === 'pair') {
      // A label and its answer on a rule right after it (measured, so the two never touch).
      ctx.font = 'bold 18px "DejaVu Sans"';
      ctx.fillText(a, x, y);
      const at = x + ctx.measureText(a).width + 18;
      ctx.font = '20px "DejaVu Sans Mono"';
      ctx.fillText(b, at, y);
      ((ctx.lineWidth = 1),
        ctx.beginPath(),
        ctx.moveTo(at - 6, y + 5),
        ctx.lineTo(at + Math.max(160, ctx.measureText(b).width + 20), y + 5),
        ctx.stroke());
      continue;
    }
    if (kind === 'title') ((ctx.font = 'bold 30px "DejaVu Sans"'), ctx.fillText(a, x, y));
    else if (kind === 'label') ((ctx.font = 'bold 18px "DejaVu Sans"'), ctx.fillText(a, x, y));
    else if (kind === 'answer') ((ctx.font = '20px "DejaVu Sans Mono"'), ctx.fillText(a, x, y));
    else if (kind === 'rule') ((ctx.lineWidth = 1), ctx.beginPath(), ctx.moveTo(x, y + 5), ctx.lineTo(x + a, y + 5), ctx.stroke());
    else if (kind === 'box') ((ctx.lineWidth = 1.5), ctx.strokeRect(x, y, a, 62));
    else if (kind === 'checkbox') {
      ctx.lineWidth = 2;
      ctx.strokeRect(x, y - 20, 24, 24);
      if (a) ((ctx.font = 'bold 22px "DejaVu Sans Mono"'), ctx.fillText(a, x + 5, y));
    }
  }
  return canvas.toBuffer('image/png');
}

const dataset = datasetWriter(out);
for (let i = 0; i < count; i++) {
  const f = form();
  dataset.add(`synth-form-${String(i).padStart(3, '0')}`, {
    bytes: png(f),
    ext: 'png',
    mediaType: 'image/png',
    want: f.want,
    schema: { fields: f.fields },
  });
}
dataset.finish();
console.log(`${count} invented forms in ${out}`);
