import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** The dashboard's path on the gateway: same origin as the API, so the browser needs no CORS for `/api/v1`. */
export const DASHBOARD_PREFIX = '/app/';

/** `DASHBOARD_DIR`, else `apps/dashboard/dist` beside this gateway's build (`apps/gateway/dist`). */
export function dashboardDir(configured: string): string {
  if (configured) return resolve(configured);
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dashboard', 'dist');
}

/**
 * Serves the dashboard's static files under `/app/` when they were built. The dashboard talks only to the public
 * API (Basic auth per request, credentials kept in the tab's sessionStorage): these routes need no authentication.
 */
export async function serveDashboard(fastify: FastifyInstance, configured: string, log: Logger): Promise<void> {
  const root = dashboardDir(configured);
  if (!existsSync(join(root, 'index.html'))) {
    log.info({ root }, 'dashboard not built: /app is not served (npm run build -w apps/dashboard)');
    return;
  }
  // (Loaded only when there is something to serve: a gateway without the dashboard never loads the static server.)
  const { default: fastifyStatic } = await import('@fastify/static');
  // The router ignores trailing slashes (`/app` and `/app/` are one route, the index): a prefix without its slash.
  await fastify.register(fastifyStatic, { root, prefix: '/app', prefixAvoidTrailingSlash: true, index: ['index.html'], wildcard: true });
  log.info({ root, path: DASHBOARD_PREFIX }, 'dashboard served');
}
