import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3001}`;

/** The storefront build. In dev the API runs beside Vite (scripts/dev.mjs) and is reached through the proxy,
 *  so the browser sees one origin as in production. */
export default defineConfig({
  plugins: [react()],
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/cached_api': { target: apiTarget, changeOrigin: false },
      '/storefront-config.json': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    reportCompressedSize: true,
    rolldownOptions: {
      output: {
        // Screens are split by the router's lazy() imports. The libraries every screen needs go in one
        // 'vendor' chunk (cached across deploys that only touch our code); DOMPurify stays with ContentBlock.
        codeSplitting: {
          // Only libraries the first page load needs ($initial): the @rjsf form stack and ajv stay in the
          // lazy chunk of the first screen that draws a form (src/forms/theme.tsx).
          groups: [{ name: 'vendor', test: /node_modules[\\/](?!dompurify)/, tags: ['$initial'] }],
        },
      },
    },
  },
});
