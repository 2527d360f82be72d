#!/usr/bin/env node
// `npm start`: serve the storefront, building it first only when its sources changed since the last build.
// `npm run build` (`--build-only`) builds unconditionally and records the stamps.
// Two builds, each with its stamp: the storefront (Vite, dist/.build-stamp, scripts/build-stamp.mjs) and the server
// (esbuild, dist-server/.build-stamp, scripts/server-bundle.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceStamp } from './build-stamp.mjs';
import { SERVER_ENTRY, SERVER_OUT, bundleServer, serverBundleCurrent } from './server-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const stampFile = path.join(dist, '.build-stamp');

function build(stamp) {
  console.log('building the storefront (vite build)');
  // The browser's build (dist/), then the server's renderer of the same sources (dist-ssr/, src/entry-server.tsx).
  for (const args of [[], ['--ssr', 'src/entry-server.tsx']]) {
    const res = spawnSync('npx', ['vite', 'build', ...args, '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }
  writeFileSync(stampFile, `${stamp}\n`);
}

const buildOnly = process.argv.includes('--build-only');
const stamp = sourceStamp(root);
const current =
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8').trim() === stamp &&
  existsSync(path.join(dist, 'index.html')) &&
  existsSync(path.join(root, 'dist-ssr', 'entry-server.js'));
if (buildOnly || !current) build(stamp);
else console.log('the built storefront is current (dist/.build-stamp): not rebuilding');
if (buildOnly || !serverBundleCurrent(root)) {
  console.log('bundling the server (esbuild)');
  await bundleServer(root);
}

if (!buildOnly) {
  // The server runs in this process (one Node start, not two): source maps for its stack traces as
  // `node --enable-source-maps` would (the flag applies to modules loaded after it is set), then the bundle's own
  // main takes over (its signals, its exit code).
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(path.join(root, SERVER_OUT, SERVER_ENTRY)).href);
}
