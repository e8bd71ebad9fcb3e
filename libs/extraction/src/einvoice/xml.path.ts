/** Reading values out of fast-xml-parser's objects (namespace prefixes removed, attributes as `@name`). */

export type XmlNode = unknown;

/** A node's occurrences as a list (one element is an object, several an array, none undefined). */
export function all(v: XmlNode): XmlNode[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** The text of an element (`#text` when it has attributes). */
export function textOf(v: XmlNode): string | undefined {
  const first = all(v)[0];
  if (first === undefined || first === null) return undefined;
  const t = typeof first === 'object' ? (first as Record<string, unknown>)['#text'] : first;
  if (t === undefined || t === null || typeof t === 'object') return undefined;
  const s = String(t).trim();
  return s === '' ? undefined : s;
}

/** An attribute of an element. */
export function attrOf(v: XmlNode, name: string): string | undefined {
  const first = all(v)[0];
  return first && typeof first === 'object' ? textOf((first as Record<string, unknown>)[`@${name}`]) : undefined;
}

/** The first node at a slash path of local element names (each step takes the first occurrence). */
export function at(node: XmlNode, path: string): XmlNode {
  let cur: XmlNode = node;
  for (const k of path.split('/')) {
    const first = all(cur)[0];
    if (!first || typeof first !== 'object') return undefined;
    cur = (first as Record<string, unknown>)[k];
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Every node at a slash path (the last step's occurrences, under the first of each earlier step). */
export function allAt(node: XmlNode, path: string): XmlNode[] {
  return all(at(node, path));
}

/** Text at a path. */
export function str(node: XmlNode, path: string): string | undefined {
  return textOf(at(node, path));
}

/** A decimal at a path (the syntaxes write `1234.50`, no grouping, `.` as the mark). */
export function num(node: XmlNode, path: string): number | undefined {
  return decimal(str(node, path));
}

export function decimal(s: string | undefined): number | undefined {
  if (s === undefined || !/^[-+]?\d+(\.\d+)?$/.test(s)) return undefined;
  return Number(s);
}

/** CII dates (`format="102"`: `20250131`) and UBL dates (`2025-01-31`) → `2025-01-31`. */
export function isoDate(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** Drops undefined values (the model keeps only what the XML says). */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}

/** Address lines, postcode, city and country on one line, as printed: `Street 1, 12345 Town, DE`. */
export function addressLine(parts: (string | undefined)[][]): string | undefined {
  const out = parts.map((p) => p.filter(Boolean).join(' ')).filter(Boolean);
  return out.length ? out.join(', ') : undefined;
}
