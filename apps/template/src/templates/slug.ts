const MAX_SLUG = 80;

/** "Supplier Invoice 2" → "supplier-invoice-2"; accents folded, anything else becomes a single dash. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, '');
  return slug || 'template';
}

/**
 * The base slug when free, else the smallest `<base>-<n>` (n ≥ 2) not in `taken`.
 * `taken` holds the account's slugs that start with the base (see `slugCandidatesPattern`).
 */
export function pickFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** LIKE pattern matching the base slug and its numbered variants (slugs only contain [a-z0-9-]). */
export function slugCandidatesPattern(base: string): string {
  return `${base}%`;
}
