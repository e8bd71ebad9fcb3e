// The dashboard: built to dist/ and served by the gateway under /app/ (same origin as /api/v1).
// `npm run dev -w apps/dashboard` serves it on :5173 and proxies /api to the gateway (DOCKET_GATEWAY, default :3000).
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/app/',
  // JSX through esbuild (React 17+ automatic runtime): no React plugin needed.
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
    rollupOptions: {
      // TanStack Query marks its modules "use client" (for React Server Components); meaningless in a client bundle.
      onwarn(w, warn) {
        if (w.code !== 'MODULE_LEVEL_DIRECTIVE') warn(w);
      },
    },
  },
  server: { proxy: { '/api': process.env.DOCKET_GATEWAY ?? 'http://127.0.0.1:3000' } },
});
