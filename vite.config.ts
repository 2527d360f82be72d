import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Writes name.br and name.gz beside every text file of the build, compressed once at the highest levels;
 *  the server sends them to browsers that accept them (@fastify/static preCompressed). */
function precompress(): Plugin {
  return {
    name: 'storefront-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => /\.(?:js|css|html|json|svg)$/.test(name) && !name.startsWith('.vite/'))
          .map(async (name) => {
            const file = path.join(dir, name);
            const data = await readFile(file);
            if (data.length < 1024) return; // smaller than a packet: not worth a second request path
            await writeFile(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
            await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
          }),
      );
    },
  };
}

/** @rjsf/core's imports of markdown-to-jsx resolve to src/forms/lazy-markdown.tsx, which loads the library only when a
 *  form draws markdown (it says why). Its own import of the library resolves as usual. */
export const LAZY_MARKDOWN = 'src/forms/lazy-markdown.tsx';
export function lazyMarkdown(): Plugin {
  let shim = path.resolve(LAZY_MARKDOWN);
  return {
    name: 'storefront-lazy-markdown',
    enforce: 'pre',
    configResolved(config) {
      shim = path.resolve(config.root, LAZY_MARKDOWN);
    },
    resolveId(source, importer) {
      return source === 'markdown-to-jsx/react' && importer && /[\\/]node_modules[\\/]@rjsf[\\/]/.test(importer) ? shim : null;
    },
  };
}

/** The chunks index.html itself loads (the entry 'index', its CSS, the 'vendor' group, Rolldown's runtime, Vite's preload helper). */
const ALWAYS_LOADED = /(^|\/)(index|vendor|rolldown-runtime|preload-helper)-[\w-]+\.(js|css)$/;

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3001}`;

/** The server's renderer (src/entry-server.tsx, `vite build --ssr`): modules for Node in dist-ssr/ with the libraries
 *  in them, so the folder works wherever it is (SSR_DIR; the bench builds it into a temporary folder, where an import
 *  of 'react-dom' from node_modules would not resolve), and their production builds whatever NODE_ENV the server has
 *  (`npm start` sets none, and React's development build drew 602-631 uncached listings in 8 s against 769-773). */
const ssrBuild = {
  plugins: [react()],
  ssr: { noExternal: true as const },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: { outDir: 'dist-ssr', emptyOutDir: true, ssr: 'src/entry-server.tsx', sourcemap: true, copyPublicDir: false },
};

/** The storefront build. In dev the API runs beside Vite (scripts/dev.mjs) and is reached through the proxy,
 *  so the browser sees one origin as in production. */
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? ssrBuild
    : {
        plugins: [react(), lazyMarkdown(), precompress()],
        server: {
          port: 3000,
          strictPort: true,
          proxy: {
            '/api': { target: apiTarget, changeOrigin: false },
            '/cached_api': { target: apiTarget, changeOrigin: false },
            '/storefront-config.json': { target: apiTarget, changeOrigin: false },
            // The component viewer, when built (`npm run stories:build`): the API serves it outside production.
            '/_stories': { target: apiTarget, changeOrigin: false },
          },
        },
        build: {
          outDir: 'dist',
          emptyOutDir: true,
          sourcemap: true,
          // dist/.vite/manifest.json (not served: the static plugin skips dot folders) tells the bundle budget which chunks
          // only the late modules load (bench/bundle.ts), whatever the moment the browser asks for them.
          manifest: true,
          // Every browser we target (last two Chrome, Edge, Firefox and Safari versions) supports <link rel=modulepreload>:
          // Vite's polyfill for it would only add bytes to the first page (issue 19: no polyfills we do not need).
          modulePreload: {
            polyfill: false,
            // A lazy import names the chunks it needs so they download together. The runtime, the entry, the shared vendor
            // chunk, the preload helper and the entry's CSS are always loaded before any lazy import can run: naming them in
            // every lazy import's list only added bytes to the first page (about 30 bytes per name and import). The page
            // itself keeps its whole list: without <link rel=modulepreload> for the vendor chunk and the runtime, the browser
            // met them only once the entry had arrived and been parsed, one round trip later on every first load.
            resolveDependencies: (_file, deps, { hostType }) =>
              hostType === 'html' ? deps : deps.filter((dep) => !ALWAYS_LOADED.test(dep)),
          },
          reportCompressedSize: true,
          rolldownOptions: {
            output: {
              // Screens are split by the router's lazy() imports. The libraries every screen needs go in one
              // 'vendor' chunk (cached across deploys that only touch our code).
              codeSplitting: {
                // Only libraries the first page load needs ($initial): the @rjsf form stack and ajv stay in the
                // lazy chunk of the first screen that draws a form (src/forms/theme.tsx).
                groups: [
                  { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'] },
                  // loaded by src/forms/lazy-markdown.tsx; named for what it is (its entry is 'markdown-to-jsx/react')
                  { name: 'markdown', test: /node_modules[\\/]markdown-to-jsx[\\/]/ },
                ],
              },
            },
          },
        },
      },
);
