import { yesNoWords } from '../locales/locale.registry.js';

// Yes/no words are the locale packs' (`yesWords`, `noWords`); marks and digits are shapes.
const WORDS = yesNoWords();
const YES_MARKS = ['x', '1'];
const NO_MARKS = ['0'];

/** Parses yes/no words of the locale packs and check-box glyphs; undefined when the text says neither. */
export function parseBoolean(raw: string): boolean | undefined {
  const s = raw.normalize('NFKC').trim().toLowerCase();
  if (!s) return undefined;
  if (/^[☑☒✓✔✗✘■]|^\[\s*[x✓✔]\s*\]|^\(\s*x\s*\)/i.test(s)) return true;
  if (/^[☐□]|^\[\s*\]|^\(\s*\)/.test(s)) return false;
  const w = s.replace(/[.!:;,]+$/, '').split(/\s+/)[0]!;
  if (WORDS.yes.has(w) || YES_MARKS.includes(w)) return true;
  if (WORDS.no.has(w) || NO_MARKS.includes(w)) return false;
  return undefined;
}
