import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DASHBOARD = join(REPO_ROOT, 'apps', 'dashboard');

/** Debian's Chromium (apt package `chromium`); `.ci/run` / `npm test` install it when missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium as this machine allows it: no sandbox (root), no GPU, and no background networking (the closed
 * network refuses Chromium's own connections), a fresh profile each launch.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** The gateway serves apps/dashboard/dist under /app: build it when this checkout has not yet. */
export function ensureDashboardBuilt(): void {
  if (existsSync(join(DASHBOARD, 'dist', 'index.html'))) return;
  const vite = [join(DASHBOARD, 'node_modules', 'vite', 'bin', 'vite.js'), join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js')].find(
    existsSync,
  );
  if (!vite) throw new Error('vite is not installed: npm install');
  const r = spawnSync(process.execPath, [vite, 'build'], { cwd: DASHBOARD, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('dashboard build failed');
}
