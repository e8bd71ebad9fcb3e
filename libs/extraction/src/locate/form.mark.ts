import type { Line, Word } from '../layout/layout.types.js';
import { compact, LABEL_LIKE, SEPARATOR } from './form.text.js';

/** Check-box marks on forms: ticks and crosses OCR read beside, before or glued to the option they answer. */

/** A tick or cross filling a check box, as OCR reads it: "x", "X", "[X]", "_X_", "|X", "☑", "✓". */
const MARK = /^[[(|_]*[xX✓✔☑☒✗✘][\])|_]*\.?$/u;
/**
 * One handwritten cross that OCR read as two glyphs of which it could not settle the case or shape ("xX",
 * "ox", "Xe"): read as a plain cross. ("XX" is left as printed: two crosses may be meant.)
 */
const SPLIT_MARK = /^[[(|_]*(?:xX|Xx|[oO][xX]|[xX][eoO])[\])|_]*$/u;
/** An empty check box as OCR reads it: brackets and bars. */
export const BOX = /^[[\](|)□☐]{1,3}$/u;
/** A mark glued by OCR to the front of the option it ticks ("X_FAIR", "_X__YES"). */
const GLUED_MARK = /^[[(|_]*[xX✓✔☑☒][\])|_]+(?=\p{Lu}{2})/u;
/**
 * A mark between two words belongs to the nearer one: to the option after it when its gap to that option is
 * at most this share of its gap to the word before ("POOR  X FAIR": X ticks FAIR).
 */
export const MARK_NEARER = 0.6;
/** How far (letter heights) a mark may stand from the option it ticks. */
const MARK_REACH = 3;
/** A mark followed by a lower-case word closer than this many letter heights is a letter of that word. */
const MARK_SPACE = 0.6;
/** A mark after a printed label within this many letter heights is that label's answer. */
const LABEL_MARK_REACH = 4;
/** A mark OCR read into the front of the option it ticks with nothing between them ("XYES"): the mark. */
export const CLOSE_MARK = /^[[(|_]*[xX✓✔☑☒][\])|_]*(?=\p{Lu}{2})/u;

export const isMark = (text: string) => MARK.test(text) || SPLIT_MARK.test(text);
/**
 * The mark OCR glued to the front of an option's first word ("X_FAIR", "XYES"), if any; with nothing between
 * mark and option only when the label itself does not start so ("XRAY").
 */
export function gluedMark(text: string, label: string): RegExpExecArray | null {
  const close = CLOSE_MARK.exec(text);
  return GLUED_MARK.exec(text) ?? (close && !compact(label).startsWith(compact(text)) ? close : null);
}
/** A mark as the answer: a split cross reads as one cross. */
const markWord = (w: Word): Word => (SPLIT_MARK.test(w.text) && !MARK.test(w.text) ? { ...w, text: 'x' } : w);

/**
 * The mark answering a check-box option: right of the label when the value there starts with a lone mark,
 * else just left of it (boxes printed before their options) unless that mark follows another label (it is
 * that label's answer: "Yes x No") or the label has a value of its own right of it. A mark clearly nearer to
 * the option than to the word before it is the option's even when more options follow ("POOR  X FAIR GOOD").
 */
export function checkMark(
  line: Line,
  start: number,
  rest: Word[],
  boxAfter: boolean,
  h: number,
  isDelimWord: (w: Word) => boolean,
  label: string,
): Word | undefined {
  const ws = line.words;
  const glued = gluedMark(ws[start]!.text, label);
  if (glued) return { ...ws[start]!, text: glued[0] };
  if (
    rest.length &&
    isMark(rest[0]!.text) &&
    (rest.length === 1 || rest[1]!.x0 - rest[0]!.x1 > h * MARK_SPACE || !/^\p{Ll}/u.test(rest[1]!.text))
  )
    return markWord(rest[0]!);
  let k = start - 1;
  while (k >= 0 && BOX.test(ws[k]!.text)) k--;
  if (k < 0 || !isMark(ws[k]!.text) || ws[start]!.x0 - ws[k]!.x1 > h * MARK_REACH) return undefined;
  let before = k - 1;
  while (before >= 0 && (BOX.test(ws[before]!.text) || SEPARATOR.test(ws[before]!.text))) before--;
  const gapBefore = before >= 0 ? ws[k]!.x0 - ws[before]!.x1 : Infinity;
  // A mark written on a blank printed before its option ("_X FAIR") belongs to that option, however the
  // option row is spaced; so does a mark clearly nearer to the option than to the word before it.
  const onBlank = /^_+[^_]+$/.test(ws[k]!.text);
  const nearer = onBlank || ws[start]!.x0 - ws[k]!.x1 <= gapBefore * MARK_NEARER;
  // The option's own label must not be a question ("Name:"): a question's value is right of it.
  const option = !LABEL_LIKE.test(ws[start]!.text);
  if (!(nearer && option)) {
    if (rest.length && !boxAfter && !(rest.length === 1 && /^\p{L}+$/u.test(rest[0]!.text))) return undefined;
    if (before >= 0 && (isDelimWord(ws[before]!) || LABEL_LIKE.test(ws[before]!.text)) && gapBefore < h * LABEL_MARK_REACH)
      return undefined;
  }
  // A cross inside a printed box ("[X]", "|X |") is a ticked box.
  const boxed = /[[|]/.test(ws[k]!.text) || (k > 0 && BOX.test(ws[k - 1]!.text)) || BOX.test(ws[k + 1]!.text);
  return boxed ? { ...ws[k]!, text: '☑' } : markWord(ws[k]!);
}
