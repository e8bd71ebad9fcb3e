/**
 * Parses a printed number. Handles thousands separators (`,` `.` space, NBSP, apostrophe), a decimal
 * comma, leading/trailing minus, parentheses for negatives and surrounding currency marks.
 *
 * Ambiguity rule for a single separator followed by exactly three digits (`1.234`, `1,234`): it is a
 * thousands separator, unless the integer part is 0 (`0.125`) — the same rule most invoices follow and
 * the one the corpus scorer uses. `hint` = 'comma' forces `,` as the decimal mark (locale known from
 * context), 'dot' forces `.`.
 */
export function parseNumber(raw: string, hint?: 'comma' | 'dot'): number | undefined {
  if (raw == null) return undefined;
  let s = String(raw).normalize('NFKC').trim();
  if (!s) return undefined;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  s = withoutMarks(s);
  if (/^[-−–]/.test(s)) {
    negative = !negative;
    // (The sign may stand before the currency mark: "-$3.25", "−€ 12,50".)
    s = withoutMarks(s.slice(1));
  } else if (/[-−–]$/.test(s)) {
    negative = !negative;
    s = withoutMarks(s.slice(0, -1));
  } else if (/^\+/.test(s)) s = withoutMarks(s.slice(1));
  if (/^\(.*\)$/.test(s)) {
    negative = !negative;
    s = s.slice(1, -1).trim();
  }
  s = s.replace(/[\s\u00a0\u202f'’]/g, '');
  if (!/^\d[\d.,]*$/.test(s) && !/^[.,]\d+$/.test(s)) return undefined;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let decimalSep: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) {
    decimalSep = lastDot > lastComma ? '.' : ',';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const count = s.split(sep).length - 1;
    const after = s.length - s.lastIndexOf(sep) - 1;
    const intPart = s.slice(0, s.indexOf(sep));
    if (count > 1)
      decimalSep = null; // 1.234.567 → grouping only
    else if (hint === 'comma') decimalSep = sep === ',' ? ',' : after === 3 && intPart !== '0' ? null : '.';
    else if (hint === 'dot') decimalSep = sep === '.' ? '.' : after === 3 && intPart !== '0' ? null : ',';
    else if (after === 3 && intPart !== '0' && intPart !== '') decimalSep = null;
    else decimalSep = sep;
  }
  let norm = s;
  if (decimalSep) {
    const other = decimalSep === '.' ? ',' : '.';
    const i = norm.lastIndexOf(decimalSep);
    norm = norm.slice(0, i).split(other).join('').split(decimalSep).join('') + '.' + norm.slice(i + 1);
  } else {
    norm = norm.replace(/[.,]/g, '');
  }
  if (!/^\d*\.?\d+$|^\d+\.?$/.test(norm)) return undefined;
  const n = Number(norm);
  if (!Number.isFinite(n)) return undefined;
  return negative ? -n : n;
}

/** Matches number-looking tokens inside free text (used to pick values out of a line). */
export const NUMBER_TOKEN = /\(?[-−]?\s?(?:[$€£¥₹]\s?)?\d{1,3}(?:[.,'\s\u00a0]\d{3})*(?:[.,]\d+)?\)?-?|\(?[-−]?\d+(?:[.,]\d+)?\)?/g;

/** A figure without the currency symbols, codes and letters around it, signs kept (any script's letters: "Kč", "zł"). */
function withoutMarks(s: string): string {
  return s
    .replace(/^[\p{L}$€£¥₹₽₩₺฿₫₴₦]+\.?/u, '')
    .replace(/[\p{L}$€£¥₹₽₩₺฿₫₴₦]+\.?$/u, '')
    .trim();
}
