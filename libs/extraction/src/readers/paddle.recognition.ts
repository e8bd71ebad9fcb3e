import type { Image } from '@napi-rs/canvas';
import type { Word } from '../layout/layout.types.js';
import { ctcDecode, splitWords, type CtcChar } from './paddle.ctc.js';
import type { Segment } from './paddle.detection.js';
import { pixels, toChw } from './paddle.pixels.js';
import type { Ort, Recognizer, Sessions } from './paddle.sessions.js';

/** PaddleOCR text recognition (SVTR/CTC): each detected segment read, words cut from its characters. */

/** Recognition input height (PP-OCRv4). */
const REC_HEIGHT = 48;
/** Narrowest recognition input (pixels). */
const REC_MIN_WIDTH = 16;
/** Recognition normalisation: pixels to -1..1. */
const REC_MEAN = [0.5, 0.5, 0.5];
const REC_STD = [0.5, 0.5, 0.5];
/** Widest recognition input (pixels at REC_HEIGHT); longer segments are squeezed to it. */
const REC_MAX_WIDTH = 3200;
/** A segment whose mean character probability is below this is not text. */
const REC_MIN_SEGMENT_PROB = 0.4;
/** Two boxes overlapping vertically by this share of the smaller one's height are on one text line. */
const LINE_OVERLAP = 0.5;
/** A word lying over another region's word by this share of the narrower one's width is read twice. */
const WORD_OVERLAP = 0.5;

/** A segment cut out and scaled for recognition. */
interface RecInput {
  seg: Segment;
  width: number;
  data: Float32Array;
}

async function recInput(img: Image, seg: Segment): Promise<RecInput | undefined> {
  const sw = seg.x1 - seg.x0;
  const sh = seg.y1 - seg.y0;
  if (sw < 1 || sh < 1) return undefined;
  const width = Math.max(REC_MIN_WIDTH, Math.min(REC_MAX_WIDTH, Math.round((REC_HEIGHT * sw) / sh)));
  const px = await pixels(img, seg.x0, seg.y0, sw, sh, width, REC_HEIGHT);
  return { seg, width, data: toChw(px, width, REC_HEIGHT, REC_MEAN, REC_STD) };
}

/**
 * Reads the segments one at a time, each cut out just before its inference (only one segment's pixels are held).
 * Batching segments of similar width was measured and dropped: 8 per inference, sorted by width and padded, cost 40 %
 * more CPU than one at a time on a receipt (onnxruntime 1.30, one thread); measured again in isolation on 8 invented
 * lines, 1.6× the CPU and 3–5× the wall time even at equal widths (`node tools/bench/paddle-ort.mjs`).
 */
export async function recognizeAll(s: Sessions, img: Image, segments: Segment[]): Promise<Word[]> {
  const read: Word[][] = [];
  for (const seg of segments) {
    const input = await recInput(img, seg);
    if (!input) continue;
    let r = await recognizeInput(s.ort, s.main, input);
    const sure = meanProb(r.chars, 'read');
    if (s.second && sure < SECOND_BELOW) {
      const again = await recognizeInput(s.ort, s.second, input);
      if (meanProb(again.chars, 'read') > sure) r = again;
    }
    read.push(segmentWords(seg, r.chars, r.steps));
  }
  return dropOverlapReads(read).flat();
}

/**
 * A segment the multilingual model reads at a mean character probability below this is read again by the English
 * model (bundled beside it), and the more confident reading is kept: the two models err on different glyphs
 * (sroie-wide tune 0.847 → 0.847, check 0.767 → 0.775; funsd-wide tune 0.619 → 0.624, check 0.536 → 0.543).
 */
const SECOND_BELOW = 0.9;

async function recognizeInput(
  ort: Ort,
  { rec, charset, allowed }: Recognizer,
  input: RecInput,
): Promise<{ chars: CtcChar[]; steps: number }> {
  const out = await rec.run({ [rec.inputNames[0]!]: new ort.Tensor('float32', input.data, [1, 3, REC_HEIGHT, input.width]) });
  const t = out[rec.outputNames[0]!]!;
  const [, steps, classes] = t.dims as number[];
  return { chars: ctcDecode(t.data as Float32Array, steps!, classes!, charset, steps!, allowed), steps: steps! };
}

/**
 * Mean probability of a segment's characters (spaces left out). 'read': only the characters the model read as its
 * best class, the measure of how sure it is of the segment (which of two recognizers to keep); 'all': hinted
 * punctuation too, the measure of whether the segment is text at all (REC_MIN_SEGMENT_PROB).
 */
function meanProb(chars: readonly CtcChar[], which: 'read' | 'all'): number {
  const seen = chars.filter((c) => c.ch !== ' ' && (which === 'all' || !c.hinted));
  return seen.length ? seen.reduce((a, c) => a + c.prob, 0) / seen.length : 0;
}

/**
 * Two detected regions of one line whose boxes overlap read the letters in the overlap twice ("Reference" and
 * "e QX-5531"): a word lying mostly (WORD_OVERLAP of the narrower one) over a word of another region of its line is a
 * fragment, and the narrower of the two goes.
 */
export function dropOverlapReads(segments: Word[][]): Word[][] {
  const out = segments.map((ws) => [...ws]);
  for (let a = 0; a < out.length; a++)
    for (let b = a + 1; b < out.length; b++)
      for (const u of [...out[a]!])
        for (const v of [...out[b]!]) {
          const vertical = Math.min(u.y1, v.y1) - Math.max(u.y0, v.y0);
          const horizontal = Math.min(u.x1, v.x1) - Math.max(u.x0, v.x0);
          const narrower = Math.min(u.x1 - u.x0, v.x1 - v.x0);
          if (vertical < LINE_OVERLAP * Math.min(u.y1 - u.y0, v.y1 - v.y0) || horizontal < WORD_OVERLAP * narrower) continue;
          const [list, word] = u.x1 - u.x0 <= v.x1 - v.x0 ? [out[a]!, u] : [out[b]!, v];
          const at = list.indexOf(word);
          if (at >= 0) list.splice(at, 1);
        }
  return out;
}

/** Words of one segment from its characters (positions are shares of the segment's width). */
function segmentWords(seg: Segment, chars: CtcChar[], span: number): Word[] {
  if (!chars.some((c) => c.ch !== ' ') || meanProb(chars, 'all') < REC_MIN_SEGMENT_PROB) return [];
  const sw = seg.x1 - seg.x0;
  // A character's time steps cover its middle; half a time step either side reaches its edges.
  const half = 0.5 / span;
  return splitWords(chars).map((cs) => ({
    text: cs.map((c) => c.ch).join(''),
    x0: seg.x0 + Math.max(0, cs[0]!.from - half) * sw,
    x1: seg.x0 + Math.min(1, cs[cs.length - 1]!.to + half) * sw,
    y0: seg.y0,
    y1: seg.y1,
    conf: cs.reduce((a, c) => a + c.prob, 0) / cs.length,
  }));
}
