/**
 * Accents printed as glyphs of their own. TeX's OT1 fonts (Computer Modern without `fontenc`) have no accented
 * letters: `é` is an acute glyph set over an `e` (the `\accent` primitive), so the text layer gives "Cr´" and "eation"
 * as two runs, the second starting back under the accent. Read as they come, the words are "Cr´eation", or "r´ esultats"
 * where a cell's words are joined with spaces. A run that ends in such an accent, followed on its line by a run whose
 * first letter the accent stands over, is one run with the accented letter in it.
 */

/** A text run as the PDF reader boxes it: its string, transform (page units), printed width and height, font. */
export interface TextRun {
  str: string;
  tx: number[];
  width: number;
  height: number;
  fontName: string;
}

/** Spacing accents (the glyphs' Unicode names in fonts' encodings) and the combining marks they stand for. */
const SPACING_ACCENTS: Readonly<Record<string, string>> = {
  '\u00b4': '\u0301', // acute
  '`': '\u0300', // grave
  '\u00a8': '\u0308', // dieresis
  '\u02c6': '\u0302', // circumflex
  '\u02dc': '\u0303', // tilde
  '\u00b8': '\u0327', // cedilla
  '\u02c7': '\u030c', // caron
  '\u02d8': '\u0306', // breve
  '\u02da': '\u030a', // ring
  '\u02d9': '\u0307', // dot above
  '\u00af': '\u0304', // macron
  '\u02dd': '\u030b', // double acute
  '\u02db': '\u0328', // ogonek
};

/** The letter with the accent on it, when Unicode has it as one character ("´" on "e" → "é"); else undefined. */
export function accented(accent: string, letter: string): string | undefined {
  const mark = SPACING_ACCENTS[accent];
  if (!mark || !/^\p{L}$/u.test(letter)) return undefined;
  const c = `${letter}${mark}`.normalize('NFC');
  return [...c].length === 1 ? c : undefined;
}

/** The accent stands over the next run's first letter: that run starts back under it, within this many text heights. */
const ACCENT_REACH = 0.8;
/** …on its line: the baselines differ by less than this many text heights (an accent over a capital is raised). */
const ACCENT_RISE = 0.5;

/** The runs of a page with every accent printed on its own put on the letter it stands over (runs in content order). */
export function joinAccentedRuns(runs: readonly TextRun[]): TextRun[] {
  const out: TextRun[] = [];
  for (const run of runs) {
    const prev = out[out.length - 1];
    const joined = prev && joinAccent(prev, run);
    if (joined) out[out.length - 1] = joined;
    else out.push(run);
  }
  return out;
}

function joinAccent(a: TextRun, b: TextRun): TextRun | undefined {
  const accent = a.str.at(-1) ?? '';
  const letter = b.str.at(0) ?? '';
  const composed = accented(accent, letter);
  if (!composed || a.tx[1] !== 0 || a.tx[2] !== 0 || b.tx[1] !== 0 || b.tx[2] !== 0) return undefined;
  const h = Math.abs(a.tx[3]!) || a.height || 1;
  const end = a.tx[4]! + a.width;
  const back = end - b.tx[4]!;
  if (back <= 0 || back > h * ACCENT_REACH || Math.abs(a.tx[5]! - b.tx[5]!) > h * ACCENT_RISE) return undefined;
  // (The joined run keeps the letter's baseline: a raised accent's run may be the accent alone.)
  const tx = a.str.length > 1 ? a.tx : [...a.tx.slice(0, 5), b.tx[5]!];
  return { ...a, str: `${a.str.slice(0, -1)}${composed}${b.str.slice(1)}`, tx, width: b.tx[4]! + b.width - a.tx[4]! };
}
