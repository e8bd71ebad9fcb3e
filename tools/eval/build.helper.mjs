// Rebuilds libs/extraction with tsc when dist is missing or older than any source file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else if (e.name.endsWith('.ts') && !/\.(spec|int-spec|test-helper)\.ts$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

export function ensureBuilt(repo, log = console.log) {
  const lib = join(repo, 'libs/extraction');
  // tsc -b only rewrites changed outputs, so the build info file is the reliable "last build" stamp.
  const dist = join(lib, 'dist/.tsbuildinfo');
  if (existsSync(dist) && statSync(dist).mtimeMs >= newest(join(lib, 'src'))) return;
  log('building libs/extraction (dist missing or stale) …');
  execFileSync(join(repo, 'node_modules/.bin/tsc'), ['-b', lib], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
}
