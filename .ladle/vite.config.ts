import path from 'node:path';
import { defineConfig } from 'vite';

/** Ladle's Vite (its own, 6.x): no plugins of ours; its cache apart from the storefront's Vite 8 cache. */
export default defineConfig({
  cacheDir: path.resolve('node_modules/.vite-ladle'),
  publicDir: false,
  server: { host: '127.0.0.1' },
  build: { sourcemap: false, chunkSizeWarningLimit: 2000 },
});
