/** Parses yes/no words (EN/DE/FR/NL) and check-box glyphs; undefined when the text says neither. */
export function parseBoolean(raw: string): boolean | undefined {
  const s = raw.normalize('NFKC').trim().toLowerCase();
  if (!s) return undefined;
  if (/^[☑☒✓✔✗✘■]|^\[\s*[x✓✔]\s*\]|^\(\s*x\s*\)/i.test(s)) return true;
  if (/^[☐□]|^\[\s*\]|^\(\s*\)/.test(s)) return false;
  const w = s.replace(/[.!:;,]+$/, '').split(/\s+/)[0]!;
  if (['yes', 'y', 'true', 'ja', 'oui', 'checked', 'paid', 'x', '1', 'on', 'si', 'sí'].includes(w)) return true;
  if (['no', 'n', 'false', 'nein', 'non', 'nee', 'unchecked', 'unpaid', '0', 'off'].includes(w)) return false;
  return undefined;
}
