// The server as `npm start` runs it: server/main.ts and what it imports from this package, bundled by esbuild into
// dist-server/ with most of the packages it imports (BUNDLE_EXTERNAL stay imports of node_modules). Node then loads a
// few plain JavaScript files instead of transpiling some 300 TypeScript modules through tsx, or finding and reading
// some thousand package modules, on every start (module loading fell from about 1.2 s to 0.5 s of a start here). Tests and `npm run dev` still run the sources through tsx.
//
// The stamp (dist-server/.build-stamp) hashes exactly the files the last bundle read (esbuild's metafile) plus the
// lockfile, so an edit of any of them, or a new dependency, rebuilds it, and nothing else does.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SERVER_OUT = 'dist-server';
export const SERVER_ENTRY = 'main.mjs';

function stampOf(root, files) {
  const hash = createHash('sha256');
  for (const file of [...files, 'package-lock.json'].sort()) {
    const full = path.join(root, file);
    hash
      .update(file)
      .update('\0')
      .update(existsSync(full) ? readFileSync(full) : 'missing')
      .update('\0');
  }
  return hash.digest('hex');
}

// Not bundled: packages that read files beside their code (PGlite's WebAssembly, swagger-ui's assets), start worker
// threads (pino's transports) or load optional native parts (pg), and those the server loads only when a feature is
// used (Stripe, SMTP, wallet passes, QR codes, the form validator compiler): a start reads none of them.
const BUNDLE_EXTERNAL = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  'pino',
  'thread-stream',
  'pg',
  'pg-native',
  'stripe',
  'nodemailer',
  'passkit-generator',
  'jose',
  'qrcode',
  '@rjsf/validator-ajv8',
  '@rjsf/utils',
  'esbuild',
  'vite',
];

/** True when dist-server/ holds a bundle of the current sources. */
export function serverBundleCurrent(root) {
  const stampFile = path.join(root, SERVER_OUT, '.build-stamp');
  if (!existsSync(stampFile) || !existsSync(path.join(root, SERVER_OUT, SERVER_ENTRY))) return false;
  const [stamp, ...files] = readFileSync(stampFile, 'utf8').trim().split('\n');
  return stamp === stampOf(root, files);
}

/** Bundles the server and writes the stamp: its first line the hash, then the files it covers. */
export async function bundleServer(root) {
  const { build } = await import('esbuild');
  const outdir = path.join(root, SERVER_OUT);
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true, // a dynamic import() stays lazy (the mail renderer loads when a mail is sent)
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages are bundled too (one file to load instead of some thousand modules to find and read), except those that
    // read files beside their code, start worker threads, or load optional native parts.
    external: BUNDLE_EXTERNAL,
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    sourcemap: 'linked',
    // Whitespace and syntax only (names stay, for stack traces without the map): a third smaller, so less to read
    // and parse on every start (4.45 MB -> 2.99 MB; about 30 ms of a start here, median of 6 alternating).
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
  });
  const files = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules'));
  writeFileSync(path.join(outdir, '.build-stamp'), `${stampOf(root, files)}\n${files.join('\n')}\n`);
}
