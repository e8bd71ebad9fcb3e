// Where `npm test`'s checks keep their caches: outside the repository (never committed, never read by the product),
// under $DOCKET_CACHE_DIR, else ~/.cache/docket. Every cache there is keyed by content (a stale entry is never used,
// only recomputed) and may be deleted at any time: the next run is then as slow as a first run, never different.
//   <dir>/pdftotext/<sha256>.txt   pdftotext -layout output per PDF content (tools/eval/corpus-leak.mjs)
//   <dir>/checkout-<hash>/          one checkout's ESLint, Prettier and tsc caches (keyed by its path: two worktrees
//                                   running side by side never write the same cache file)
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CACHE_DIR = process.env.DOCKET_CACHE_DIR || join(homedir(), '.cache', 'docket');

/** `CACHE_DIR/…parts`, created. */
export function cacheDir(...parts) {
  const dir = join(CACHE_DIR, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The cache folder of the checkout at `root`. */
export function checkoutCacheDir(root) {
  return cacheDir(`checkout-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`);
}
